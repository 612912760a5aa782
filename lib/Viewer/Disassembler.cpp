//===- Disassembler.cpp - SASS of a cubin through nvdisasm ----------------===//
//
// SASS is what the GPU runs: ptxas reorders, unrolls and schedules the PTX,
// so whether a wgmma was serialized, a load became LDGSTS or a loop spilled
// is only visible here. nvdisasm ships with the CUDA toolkit (and as the
// nvidia-cuda-nvdisasm wheel); nothing else in txl needs it.
//
//===----------------------------------------------------------------------===//
#include "txl/Viewer/Disassembler.h"
#include "txl/Support/CudaTools.h"

namespace txl {

std::string findNvdisasm() { return findCudaTool("nvdisasm", "TXL_NVDISASM"); }

bool disassembleCubin(llvm::StringRef cubin, std::string &sass,
                      std::string &error) {
  std::string nvdisasm = findNvdisasm();
  if (nvdisasm.empty()) {
    error = "nvdisasm not found (put it on PATH, set CUDA_HOME, or set "
            "TXL_NVDISASM to one, e.g. the nvidia-cuda-nvdisasm wheel's)";
    return false;
  }
  TempFile input, output, messages;
  if (!input.create("cubin") || !output.create("sass") ||
      !messages.create("log") || !writeBinaryFile(input.path, cubin)) {
    error = "cannot create temporary files for nvdisasm";
    return false;
  }
  llvm::StringRef args[] = {nvdisasm, "-c", "-g", input.path};
  std::string execError;
  int status = runTool(args, output.path, messages.path, execError);
  if (status != 0) {
    error = readWholeFile(messages.path);
    if (error.empty())
      error = execError.empty()
                  ? "nvdisasm failed with exit status " + std::to_string(status)
                  : execError;
    return false;
  }
  sass = readWholeFile(output.path);
  return true;
}

} // namespace txl
