//===- Inspect.cpp - txlc --sass and --html
//--------------------------------===//
#include "Inspect.h"

#include "txl/Support/CudaTools.h"
#include "txl/Viewer/Disassembler.h"
#include "txl/Viewer/KernelViewer.h"

namespace txl {

bool writeInspection(const CompiledKernel &kernel, const std::string &source,
                     const std::string &sassPath, const std::string &htmlPath,
                     std::string &error) {
  std::string sass, sassError = "no cubin (--no-cubin, or no assembler)";
  llvm::StringRef cubin(kernel.cubin.data(), kernel.cubin.size());
  if (!cubin.empty() && disassembleCubin(cubin, sass, sassError))
    sassError.clear();
  if (!sassPath.empty()) {
    if (!sassError.empty()) {
      error = "--sass: " + sassError;
      return false;
    }
    if (!writeBinaryFile(sassPath, sass)) {
      error = "cannot write '" + sassPath + "'";
      return false;
    }
  }
  if (htmlPath.empty())
    return true;
  ViewerInput input;
  input.source = source;
  input.sourceFile = kernel.sourceFile;
  input.txlir = kernel.txlir;
  input.txlgir = kernel.txlgir;
  input.llir = kernel.llir;
  input.ptx = kernel.ptx;
  input.sass = std::move(sass);
  input.sassMissing = sassError;
  input.metadataJson = kernel.metadataJson();
  if (!writeBinaryFile(htmlPath, renderKernelViewer(input))) {
    error = "cannot write '" + htmlPath + "'";
    return false;
  }
  return true;
}

} // namespace txl
