//===- SourceMap.h - Which source line each listing row came from -*- C++
//-*-===//
//
// Every stage's text names the source line it came from in its own way:
// MLIR prints `loc("file":L:C)` (inline or through `#locN` aliases, when the
// module was printed with locations), LLVM IR `!dbg !N` with `!N =
// !DILocation(line: L, ...)`, PTX `.loc FILE L C` directives, and nvdisasm
// (-g) `//## File "file", line L` comments. These parsers turn a listing
// into rows of display text and source line (0: no line), dropping the
// location syntax itself so the rows read like the plain listing.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_VIEWER_SOURCEMAP_H
#define TXL_VIEWER_SOURCEMAP_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace txl {

struct ListingRow {
  std::string text;
  int line = 0; ///< 1-based source line, 0 when the row has none
};

/// `sourceFile` selects the locations of the kernel's own file (a helper
/// imported from another module has locations in that module); it matches
/// by full path or by base name.
std::vector<ListingRow> mapMlirListing(llvm::StringRef text,
                                       llvm::StringRef sourceFile);
std::vector<ListingRow> mapLlvmListing(llvm::StringRef text);
/// PTX's DWARF sections (.section .debug_*) are left out.
std::vector<ListingRow> mapPtxListing(llvm::StringRef text,
                                      llvm::StringRef sourceFile);
std::vector<ListingRow> mapSassListing(llvm::StringRef text,
                                       llvm::StringRef sourceFile);

/// What a SASS instruction does, for the per-line counts: "tensor"
/// (HGMMA, HMMA, tcgen05's UTC*), "memory" (global/shared/local loads and
/// stores, TMA, atomics), "barrier" (BAR, SYNCS mbarrier ops, MEMBAR,
/// WARPSYNC, DEPBAR...), "alu" (everything else), or "" for a row that is
/// not an instruction.
llvm::StringRef sassInstructionClass(llvm::StringRef row);

} // namespace txl

#endif // TXL_VIEWER_SOURCEMAP_H
