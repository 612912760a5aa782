//===- CudaTools.h - Finding and running CUDA's command-line tools -*- C++
//-*-===//
//
// ptxas (assembling, Cubin.cpp) and nvdisasm (SASS, Disassembler.cpp) are
// separate programs of the CUDA toolkit, run as child processes on
// temporary files. This is the one place that knows where to look for them
// and how to run them.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_SUPPORT_CUDATOOLS_H
#define TXL_SUPPORT_CUDATOOLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileUtilities.h"

#include <memory>
#include <string>

namespace txl {

/// Path of CUDA tool `name` ("ptxas", "nvdisasm"): $`envVar` if it names
/// an executable, else $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH.
/// "" when none exists.
std::string findCudaTool(llvm::StringRef name, const char *envVar);

/// A temporary file removed on scope exit, whatever happens.
struct TempFile {
  llvm::SmallString<128> path;
  std::unique_ptr<llvm::FileRemover> remover;
  bool create(const char *suffix);
};

bool writeBinaryFile(llvm::StringRef path, llvm::StringRef bytes);
/// The file's contents, "" if it cannot be read.
std::string readWholeFile(llvm::StringRef path);

/// Runs `args` (args[0] is the program) with stdout into `stdoutPath` and
/// stderr into `stderrPath` (they may be the same file). Returns the exit
/// status; a program that could not be started returns -1 with `error` set.
int runTool(llvm::ArrayRef<llvm::StringRef> args, llvm::StringRef stdoutPath,
            llvm::StringRef stderrPath, std::string &error);

} // namespace txl

#endif // TXL_SUPPORT_CUDATOOLS_H
