//===- CudaTools.cpp - Finding and running CUDA's command-line tools ------===//
#include "txl/Support/CudaTools.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

namespace txl {

std::string findCudaTool(llvm::StringRef name, const char *envVar) {
  auto executable = [](const std::string &path) {
    return !path.empty() && llvm::sys::fs::can_execute(path);
  };
  if (const char *explicitPath = std::getenv(envVar))
    if (executable(explicitPath))
      return explicitPath;
  if (const char *cudaHome = std::getenv("CUDA_HOME")) {
    std::string path = std::string(cudaHome) + "/bin/" + name.str();
    if (executable(path))
      return path;
  }
  std::string standard = "/usr/local/cuda/bin/" + name.str();
  if (executable(standard))
    return standard;
  if (auto onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  return "";
}

bool TempFile::create(const char *suffix) {
  if (llvm::sys::fs::createTemporaryFile("txl", suffix, path))
    return false;
  remover = std::make_unique<llvm::FileRemover>(path);
  return true;
}

bool writeBinaryFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << bytes;
  os.close();
  return !os.has_error();
}

std::string readWholeFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

int runTool(llvm::ArrayRef<llvm::StringRef> args, llvm::StringRef stdoutPath,
            llvm::StringRef stderrPath, std::string &error) {
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, stdoutPath,
                                                stderrPath};
  bool failedToRun = false;
  int status = llvm::sys::ExecuteAndWait(
      args[0], args, std::nullopt, redirects, /*SecondsToWait=*/0,
      /*MemoryLimit=*/0, &error, &failedToRun);
  return failedToRun ? -1 : status;
}

} // namespace txl
