//===- KernelViewer.h - One HTML page from source to SASS --------*- C++
//-*-===//
//
// `txlc --html OUT.html` and `kernel.html()` in Python write one
// self-contained page (no network, no external files): the kernel source
// with, per line, the tile IR, GPU IR, LLVM IR, PTX and SASS rows it became
// (through the locations each stage carries; see SourceMap.h), per-line
// SASS instruction counts by class, ptxas's report and the shared-memory
// plan (the metadata's shared_plan). Clicking a source line marks its rows in every listing; clicking a
// row selects its source line. Opening the page with `#selftest` makes it
// click through itself and record the outcome in `body[data-selftest]`,
// which the headless-browser test reads.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_VIEWER_KERNELVIEWER_H
#define TXL_VIEWER_KERNELVIEWER_H

#include <string>

namespace txl {

struct ViewerInput {
  std::string source;     ///< the kernel's Python file
  std::string sourceFile; ///< its name as the locations spell it
  std::string txlir, txlgir, llir, ptx;
  std::string sass;         ///< "" when not available...
  std::string sassMissing;  ///< ...and then why
  std::string metadataJson; ///< the kernel's NAME.json
};

std::string renderKernelViewer(const ViewerInput &input);

} // namespace txl

#endif // TXL_VIEWER_KERNELVIEWER_H
