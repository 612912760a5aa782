//===- Cubin.cpp - PTX to cubin: nvJitLink, ptxas or driver JIT -----------===//
#include "txl/Target/Cubin.h"
#include "txl/Support/CudaTools.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <dlfcn.h>
#include <mutex>

namespace txl {

namespace {

//===----------------------------------------------------------------------===//
// libnvJitLink, loaded at run time so compiling needs no CUDA install.
//===----------------------------------------------------------------------===//

// The subset of nvJitLink.h we use; the ABI is stable within a major version
// and the unversioned entry points are exported by CUDA 12 and 13.
using NvJitLinkHandle = void *;
using NvJitLinkResult = int;
constexpr NvJitLinkResult kNvJitLinkSuccess = 0;
constexpr int kNvJitLinkInputPTX = 2;

struct NvJitLinkAPI {
  NvJitLinkResult (*create)(NvJitLinkHandle *, uint32_t, const char **);
  NvJitLinkResult (*destroy)(NvJitLinkHandle *);
  NvJitLinkResult (*addData)(NvJitLinkHandle, int, const void *, size_t,
                             const char *);
  NvJitLinkResult (*complete)(NvJitLinkHandle);
  NvJitLinkResult (*getLinkedCubinSize)(NvJitLinkHandle, size_t *);
  NvJitLinkResult (*getLinkedCubin)(NvJitLinkHandle, void *);
  NvJitLinkResult (*getErrorLogSize)(NvJitLinkHandle, size_t *);
  NvJitLinkResult (*getErrorLog)(NvJitLinkHandle, char *);
  NvJitLinkResult (*getInfoLogSize)(NvJitLinkHandle, size_t *);
  NvJitLinkResult (*getInfoLog)(NvJitLinkHandle, char *);
};

std::vector<std::string> nvJitLinkCandidates() {
  std::vector<std::string> names = {"libnvJitLink.so.13", "libnvJitLink.so",
                                    "libnvJitLink.so.12"};
  std::vector<std::string> dirs;
  if (const char *cudaHome = std::getenv("CUDA_HOME"))
    dirs.push_back(std::string(cudaHome) + "/lib64");
  dirs.push_back("/usr/local/cuda/lib64");
  std::vector<std::string> candidates = names;
  for (const std::string &dir : dirs)
    for (const std::string &name : names)
      candidates.push_back(dir + "/" + name);
  return candidates;
}

template <typename Fn> bool bind(void *library, const char *name, Fn &slot) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  return slot != nullptr;
}

bool bindAll(void *library, NvJitLinkAPI &api) {
  return bind(library, "nvJitLinkCreate", api.create) &&
         bind(library, "nvJitLinkDestroy", api.destroy) &&
         bind(library, "nvJitLinkAddData", api.addData) &&
         bind(library, "nvJitLinkComplete", api.complete) &&
         bind(library, "nvJitLinkGetLinkedCubinSize", api.getLinkedCubinSize) &&
         bind(library, "nvJitLinkGetLinkedCubin", api.getLinkedCubin) &&
         bind(library, "nvJitLinkGetErrorLogSize", api.getErrorLogSize) &&
         bind(library, "nvJitLinkGetErrorLog", api.getErrorLog) &&
         bind(library, "nvJitLinkGetInfoLogSize", api.getInfoLogSize) &&
         bind(library, "nvJitLinkGetInfoLog", api.getInfoLog);
}

/// Loads libnvJitLink once per process; null when absent. The library stays
/// loaded for the life of the process.
const NvJitLinkAPI *loadNvJitLink() {
  static NvJitLinkAPI api;
  static bool loaded = false;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const std::string &candidate : nvJitLinkCandidates()) {
      void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library)
        continue;
      if (bindAll(library, api)) {
        loaded = true;
        return;
      }
      dlclose(library);
    }
  });
  return loaded ? &api : nullptr;
}

std::string readLog(const NvJitLinkAPI &api, NvJitLinkHandle handle,
                    bool errorLog) {
  size_t size = 0;
  auto getSize = errorLog ? api.getErrorLogSize : api.getInfoLogSize;
  auto get = errorLog ? api.getErrorLog : api.getInfoLog;
  if (getSize(handle, &size) != kNvJitLinkSuccess || size <= 1)
    return "";
  std::string text(size, '\0');
  if (get(handle, text.data()) != kNvJitLinkSuccess)
    return "";
  text.resize(llvm::StringRef(text.c_str()).size());
  return text;
}

/// Runs one nvJitLink session on `ptx`; false at the first failing call.
bool runNvJitLink(const NvJitLinkAPI &api, NvJitLinkHandle handle,
                  const std::string &ptx, std::vector<char> &cubin) {
  // nvJitLink takes the PTX size including the terminating NUL.
  if (api.addData(handle, kNvJitLinkInputPTX, ptx.c_str(), ptx.size() + 1,
                  "txl.ptx") != kNvJitLinkSuccess ||
      api.complete(handle) != kNvJitLinkSuccess)
    return false;
  size_t size = 0;
  if (api.getLinkedCubinSize(handle, &size) != kNvJitLinkSuccess || !size)
    return false;
  cubin.resize(size);
  return api.getLinkedCubin(handle, cubin.data()) == kNvJitLinkSuccess;
}

//===----------------------------------------------------------------------===//
// ptxas, run as a child process on temp files.
//===----------------------------------------------------------------------===//

/// Runs ptxas on `ptx`; the cubin is read back only when `cubin` is set.
bool runPtxas(const std::string &ptx, const std::string &target,
              std::vector<char> *cubin, std::string &log) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    log = "ptxas not found (set TXL_PTXAS or CUDA_HOME)";
    return false;
  }
  TempFile input, output, messages;
  if (!input.create("ptx") || !output.create("cubin") ||
      !messages.create("log") || !writeBinaryFile(input.path, ptx)) {
    log = "cannot create temporary files for ptxas";
    return false;
  }
  std::string arch = "-arch=" + target;
  llvm::StringRef args[] = {ptxas,           arch,          "-lineinfo",
                            "-O3",           "--warn-on-spills", "-v",
                            "-o",            output.path,   input.path};
  std::string execError;
  int status = runTool(args, messages.path, messages.path, execError);
  log = readWholeFile(messages.path);
  if (status != 0) {
    if (!execError.empty())
      log += (log.empty() ? "" : "\n") + execError;
    if (log.empty())
      log = "ptxas failed with exit status " + std::to_string(status);
    return false;
  }
  if (!cubin)
    return true;
  auto buffer = llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false);
  if (!buffer || (*buffer)->getBufferSize() == 0) {
    log += "ptxas produced no cubin";
    return false;
  }
  cubin->assign((*buffer)->getBufferStart(), (*buffer)->getBufferEnd());
  return true;
}

} // namespace

bool nvJitLinkAvailable() { return loadNvJitLink() != nullptr; }

std::string findPtxas() { return findCudaTool("ptxas", "TXL_PTXAS"); }

bool assembleWithNvJitLink(const std::string &ptx, const std::string &target,
                           std::vector<char> &cubin, std::string &log) {
  const NvJitLinkAPI *api = loadNvJitLink();
  if (!api) {
    log = "libnvJitLink not found";
    return false;
  }
  std::string arch = "-arch=" + target;
  // -v: the resource report (registers, spills) that PtxasReport reads.
  const char *options[] = {arch.c_str(), "-O3", "-lineinfo",
                           "-Xptxas=--warn-on-spills", "-Xptxas=-v"};
  NvJitLinkHandle handle = nullptr;
  if (api->create(&handle, std::size(options), options) != kNvJitLinkSuccess) {
    log = "nvJitLinkCreate failed for " + arch;
    return false;
  }
  bool ok = runNvJitLink(*api, handle, ptx, cubin);
  std::string errors = readLog(*api, handle, /*errorLog=*/true);
  std::string info = readLog(*api, handle, /*errorLog=*/false);
  log = errors + (!errors.empty() && !info.empty() ? "\n" : "") + info;
  if (!ok && log.empty())
    log = "nvJitLink failed to assemble the PTX";
  api->destroy(&handle);
  return ok;
}

bool assembleWithPtxas(const std::string &ptx, const std::string &target,
                       std::vector<char> &cubin, std::string &log) {
  return runPtxas(ptx, target, &cubin, log);
}

bool verifyPTXWithPtxas(const std::string &ptx, const std::string &target,
                        std::string &log) {
  return runPtxas(ptx, target, nullptr, log);
}

bool assembleCubin(const std::string &ptx, const std::string &target,
                   std::vector<char> &cubin, std::string &producer,
                   std::string &log) {
  // TXL_ASSEMBLER=nvjitlink|ptxas forces one assembler (for A/B timing;
  // the cache key does not cover it: pair it with TXL_ALWAYS_COMPILE=1).
  const char *forced = std::getenv("TXL_ASSEMBLER");
  std::string only = forced ? forced : "";
  bool haveNvJitLink = only != "ptxas" && nvJitLinkAvailable();
  bool havePtxas = only != "nvjitlink" && !findPtxas().empty();
  // nvJitLink compiles PTX as a relocatable unit, where ptxas ignores
  // setmaxnreg (its C7504 note): a warp-specialized kernel's consumers then
  // keep the launch's register budget, and wgmma is serialized when its
  // accumulators do not fit (C7512). ptxas compiles the whole program.
  if (havePtxas && ptx.find("setmaxnreg") != std::string::npos) {
    producer = "ptxas";
    if (assembleWithPtxas(ptx, target, cubin, log))
      return true;
    if (!haveNvJitLink)
      return false;
  }
  if (haveNvJitLink) {
    producer = "nvjitlink";
    if (assembleWithNvJitLink(ptx, target, cubin, log))
      return true;
    // An older nvJitLink may not know the target or PTX version while a
    // newer ptxas does; anything else fails the same way in ptxas.
    if (!havePtxas)
      return false;
    std::string ptxasLog;
    producer = "ptxas";
    bool ok = assembleWithPtxas(ptx, target, cubin, ptxasLog);
    log = ok ? ptxasLog : "nvJitLink: " + log + "\nptxas: " + ptxasLog;
    return ok;
  }
  if (havePtxas) {
    producer = "ptxas";
    return assembleWithPtxas(ptx, target, cubin, log);
  }
  producer = "driver";
  log = "neither libnvJitLink nor ptxas found; the driver will JIT the PTX";
  return false;
}

} // namespace txl
