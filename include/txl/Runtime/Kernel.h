//===- Kernel.h - A compiled, loadable, launchable kernel ------*- C++ -*-===//
//
// What the C API's txl_kernel wraps: compile through the disk cache, keep
// the artifacts and launch metadata, load the module lazily per CUDA
// context and launch with cuLaunchKernelEx.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_RUNTIME_KERNEL_H
#define TXL_RUNTIME_KERNEL_H

#include "txl/Pipeline/Pipeline.h"
#include "txl/Runtime/Cache.h"
#include "txl/Runtime/CudaDriver.h"

#include <memory>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace txl {

/// Mirrors the C API's TXL_* status codes.
enum class Status {
  Success = 0,
  InvalidArgument = 1,
  Compile = 2,
  NoDriver = 3,
  Cuda = 4,
  IO = 5,
  NotFound = 6,
  Internal = 7,
};

/// Parses the C API's options JSON (may be empty) into `options`. The
/// target "auto" (the default) becomes the current device's, else sm_90a.
bool parseCompileOptions(const std::string &json, CompileOptions &options,
                         std::string &error);

/// Compiles or fetches from the cache. Environment: TXL_CACHE_DIR,
/// TXL_ALWAYS_COMPILE, TXL_DUMP_DIR, TXL_DUMP_IR.
class RuntimeKernel {
public:
  static std::unique_ptr<RuntimeKernel>
  compile(const std::string &source, const std::string &fileName,
          const CompileOptions &options, Status &status, std::string &error);

  /// A kernel compiled elsewhere (an AOT launcher's embedded artifacts, a
  /// cache directory copied to another machine): `artifacts` holds "json"
  /// (the compiler's metadata) and "cubin" and/or "ptx". No compiler runs.
  static std::unique_ptr<RuntimeKernel> fromArtifacts(ArtifactMap artifacts,
                                                      Status &status,
                                                      std::string &error);

  ~RuntimeKernel();

  const CompiledKernel &info() const { return launchInfo; }
  const std::string &metadata() const { return metadataText; }
  /// Null if the artifact kind was not produced.
  const std::string *artifact(const std::string &kind) const;
  /// An artifact made on first request from the others: "sass" (the
  /// cubin through nvdisasm) or "html" (the viewer page, KernelViewer.h,
  /// with the source read from the metadata's source_file). Null with
  /// `error` set when it cannot be made. Kept for the kernel's lifetime.
  const std::string *derivedArtifact(const std::string &kind,
                                     std::string &error) const;
  bool cacheHit() const { return fromCache; }

  /// Loads the module into the current context (making one current if
  /// needed) and returns its function.
  Status load(cuda::CUfunction &function, std::string &error);
  Status launch(unsigned gx, unsigned gy, unsigned gz, void *stream,
                void **args, int nargs, std::string &error);

private:
  RuntimeKernel() = default;
  Status loadInContext(const cuda::Driver &driver, cuda::CUcontext context,
                       cuda::CUfunction &function, std::string &error);

  struct LoadedModule {
    cuda::CUcontext context;
    cuda::CUmodule module;
    cuda::CUfunction function;
    /// Global scratch (CompiledKernel::globalScratchBytes per program) of
    /// this context; grown, never shrunk, freed with the module.
    cuda::CUdeviceptr scratch = 0;
    size_t scratchBytes = 0;
  };
  /// The current context's scratch, at least `bytes` large.
  Status globalScratch(size_t bytes, cuda::CUdeviceptr &scratch,
                       std::string &error);

  CompiledKernel launchInfo; ///< launch fields only; bytes live in artifacts
  ArtifactMap artifacts;
  mutable std::mutex derivedMutex;
  mutable std::map<std::string, std::string> derived; ///< never erased
  std::string metadataText;
  bool fromCache = false;
  std::mutex modulesMutex;
  std::vector<LoadedModule> modules;
  /// TXL_DEBUG_SYNC: host-mapped record every loaded module reports a
  /// timed-out mbarrier wait into (DebugSync.cpp); null until first load.
  uint32_t *debugRecord = nullptr;
  Status attachDebugRecord(const cuda::Driver &driver, cuda::CUmodule module,
                           std::string &error);
  /// After a failed debug launch: the timed-out wait, if one was recorded.
  std::string describeDebugRecord() const;
};

} // namespace txl

#endif // TXL_RUNTIME_KERNEL_H
