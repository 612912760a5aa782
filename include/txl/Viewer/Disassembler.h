//===- Disassembler.h - SASS of a cubin through nvdisasm ---------*- C++
//-*-===//
#ifndef TXL_VIEWER_DISASSEMBLER_H
#define TXL_VIEWER_DISASSEMBLER_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace txl {

/// Path of nvdisasm ($TXL_NVDISASM, $CUDA_HOME/bin, /usr/local/cuda/bin,
/// PATH); "" when there is none.
std::string findNvdisasm();

/// The SASS of `cubin` with the source line of each instruction (nvdisasm
/// -c -g: code sections, `//## File "f", line L` comments from the cubin's
/// line info). False with `error` saying why (no nvdisasm, not a cubin).
bool disassembleCubin(llvm::StringRef cubin, std::string &sass,
                      std::string &error);

} // namespace txl

#endif // TXL_VIEWER_DISASSEMBLER_H
