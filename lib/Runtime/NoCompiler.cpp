//===- NoCompiler.cpp - The pipeline entry points of libtxlrt -------------===//
//
// libtxlrt is the C API without the compiler: it loads kernels compiled
// elsewhere (txl_kernel_from_artifacts, AOT launchers), encodes tensor maps
// and launches, and links no LLVM code generation and no MLIR. The runtime
// it shares with libtxl names the compiler's entry points; here they say
// that this library has none.
//
//===----------------------------------------------------------------------===//
#include "txl/Pipeline/Pipeline.h"

using namespace txl;

const char *txl::compilerVersion() { return "none: runtime-only libtxlrt"; }

bool txl::compileKernel(const std::string &, const std::string &,
                        const CompileOptions &options, CompiledKernel &,
                        std::string &diagnostics) {
  diagnostics = "cannot compile '" + options.kernelName +
                "': libtxlrt is the runtime-only library (load compiled "
                "kernels with txl_kernel_from_artifacts, or use libtxl)";
  return false;
}

// Reached only after a successful compileKernel, which this library never
// has; defined because the shared runtime names it.
std::string CompiledKernel::metadataJson() const { return "{}"; }
