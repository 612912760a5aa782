//===- Launch.cpp - Per-context module loading and cuLaunchKernelEx -------===//
#include "txl/Runtime/Kernel.h"

using namespace txl;
using namespace txl::cuda;

namespace {
/// Above this much dynamic shared memory a kernel must opt in.
constexpr int defaultSharedLimit = 48 * 1024;

Status driverOrError(const Driver *&driver, std::string &error) {
  driver = getDriver(error);
  return driver ? Status::Success : Status::NoDriver;
}
} // namespace

RuntimeKernel::~RuntimeKernel() {
  std::string error;
  const Driver *driver = modules.empty() ? nullptr : getDriver(error);
  if (!driver)
    return;
  // The context may already be gone (process teardown); the driver then
  // reports an error, which is harmless here.
  for (const LoadedModule &loaded : modules) {
    driver->cuModuleUnload(loaded.module);
    if (loaded.scratch)
      driver->cuMemFree(loaded.scratch);
  }
  if (debugRecord)
    driver->cuMemFreeHost(debugRecord);
}

Status RuntimeKernel::loadInContext(const Driver &driver, CUcontext context,
                                    CUfunction &function, std::string &error) {
  const std::string *image = artifact("cubin");
  if (!image)
    image = artifact("ptx"); // the driver JITs it (cubinProducer "driver")
  if (!image) {
    error = "kernel '" + launchInfo.name + "' has neither cubin nor PTX";
    return Status::NotFound;
  }
  char log[8192] = {0};
  int optionKeys[] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *optionValues[] = {log, reinterpret_cast<void *>(sizeof(log))};
  CUmodule module = nullptr;
  CUresult result =
      driver.cuModuleLoadDataEx(&module, image->c_str(), 2, optionKeys,
                                optionValues);
  if (result != CUDA_SUCCESS) {
    error = driver.describe("cuModuleLoadData", result);
    if (log[0])
      error += "\n" + std::string(log);
    return Status::Cuda;
  }
  result = driver.cuModuleGetFunction(&function, module,
                                      launchInfo.name.c_str());
  if (result == CUDA_SUCCESS && launchInfo.sharedBytes > defaultSharedLimit)
    result = driver.cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        launchInfo.sharedBytes);
  if (result != CUDA_SUCCESS) {
    error = driver.describe(("loading kernel '" + launchInfo.name + "'").c_str(),
                            result);
    driver.cuModuleUnload(module);
    return Status::Cuda;
  }
  if (launchInfo.debugSync)
    if (Status status = attachDebugRecord(driver, module, error);
        status != Status::Success) {
      driver.cuModuleUnload(module);
      return status;
    }
  modules.push_back({context, module, function});
  return Status::Success;
}

Status RuntimeKernel::load(CUfunction &function, std::string &error) {
  const Driver *driver = nullptr;
  if (Status status = driverOrError(driver, error); status != Status::Success)
    return status;
  CUcontext context = nullptr;
  if (!ensureContext(*driver, context, error))
    return Status::Cuda;
  std::lock_guard<std::mutex> lock(modulesMutex);
  for (const LoadedModule &loaded : modules)
    if (loaded.context == context) {
      function = loaded.function;
      return Status::Success;
    }
  return loadInContext(*driver, context, function, error);
}

/// Kernels that build TMA descriptors in the kernel get a device buffer
/// per context, shared by their launches (stream order keeps one launch's
/// maps from being rebuilt under another's feet on a stream; launches of
/// one kernel on concurrent streams would share slots). It only grows:
/// the old buffer is freed after the context has drained, so no launch
/// still writes to it.
Status RuntimeKernel::globalScratch(size_t bytes, CUdeviceptr &scratch,
                                    std::string &error) {
  const Driver *driver = getDriver(error);
  if (!driver)
    return Status::NoDriver;
  CUcontext context = nullptr;
  CUresult result = driver->cuCtxGetCurrent(&context);
  if (result != CUDA_SUCCESS) {
    error = driver->describe("cuCtxGetCurrent", result);
    return Status::Cuda;
  }
  std::lock_guard<std::mutex> lock(modulesMutex);
  for (LoadedModule &loaded : modules) {
    if (loaded.context != context)
      continue;
    if (loaded.scratchBytes < bytes) {
      if (loaded.scratch) {
        result = driver->cuCtxSynchronize();
        if (result == CUDA_SUCCESS)
          result = driver->cuMemFree(loaded.scratch);
        if (result != CUDA_SUCCESS) {
          error = driver->describe("freeing the global scratch", result);
          return Status::Cuda;
        }
        loaded.scratch = 0;
        loaded.scratchBytes = 0;
      }
      result = driver->cuMemAlloc(&loaded.scratch, bytes);
      if (result != CUDA_SUCCESS) {
        loaded.scratch = 0;
        error = driver->describe(("cuMemAlloc of " + std::to_string(bytes) +
                                  " B of global scratch for '" +
                                  launchInfo.name + "'")
                                     .c_str(),
                                 result);
        return Status::Cuda;
      }
      loaded.scratchBytes = bytes;
    }
    scratch = loaded.scratch;
    return Status::Success;
  }
  error = "kernel '" + launchInfo.name + "' is not loaded in this context";
  return Status::Internal;
}

Status RuntimeKernel::launch(unsigned gx, unsigned gy, unsigned gz,
                             void *stream, void **args, int nargs,
                             std::string &error) {
  if (nargs != int(launchInfo.params.size())) {
    error = "kernel '" + launchInfo.name + "' takes " +
            std::to_string(launchInfo.params.size()) +
            " launch arguments, got " + std::to_string(nargs);
    return Status::InvalidArgument;
  }
  if (nargs > 0 && !args) {
    error = "txl_launch: args is null";
    return Status::InvalidArgument;
  }
  CUfunction function = nullptr;
  if (Status status = load(function, error); status != Status::Success)
    return status;
  if (gx == 0 || gy == 0 || gz == 0)
    return Status::Success; // an empty grid launches nothing, like Triton
  const int *cluster = launchInfo.clusterDims;
  CUlaunchAttribute clusterAttr{};
  clusterAttr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  clusterAttr.value.clusterDim = {unsigned(cluster[0]), unsigned(cluster[1]),
                                  unsigned(cluster[2])};
  bool clustered = cluster[0] * cluster[1] * cluster[2] > 1;
  CUlaunchConfig config{};
  // Like Triton, the grid counts programs; a program is one cluster.
  config.gridDimX = gx * unsigned(cluster[0]);
  config.gridDimY = gy * unsigned(cluster[1]);
  config.gridDimZ = gz * unsigned(cluster[2]);
  config.blockDimX = unsigned(launchInfo.threadsPerCTA());
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = unsigned(launchInfo.sharedBytes);
  config.hStream = static_cast<CUstream>(stream);
  config.attrs = clustered ? &clusterAttr : nullptr;
  config.numAttrs = clustered ? 1 : 0;
  // In-kernel TMA descriptors: the scratch buffer is a hidden parameter
  // after the user's (grid size x bytes per program).
  std::vector<void *> withScratch;
  CUdeviceptr scratch = 0;
  if (launchInfo.globalScratchBytes > 0) {
    size_t bytes = size_t(gx) * gy * gz * size_t(launchInfo.globalScratchBytes);
    if (Status status = globalScratch(bytes, scratch, error);
        status != Status::Success)
      return status;
    withScratch.assign(args, args + nargs);
    withScratch.push_back(&scratch);
    args = withScratch.data();
  }
  const Driver *driver = getDriver(error);
  CUresult result = driver->cuLaunchKernelEx(&config, function, args, nullptr);
  if (result != CUDA_SUCCESS) {
    error = driver->describe(
        ("cuLaunchKernelEx of '" + launchInfo.name + "'").c_str(), result);
    return Status::Cuda;
  }
  // Debug launches are synchronous so that a timed-out wait is reported by
  // the launch that hung, with the place it waited.
  if (launchInfo.debugSync) {
    result = driver->cuStreamSynchronize(config.hStream);
    if (result != CUDA_SUCCESS) {
      error = describeDebugRecord() +
              driver->describe(("kernel '" + launchInfo.name + "'").c_str(),
                               result);
      return Status::Cuda;
    }
  }
  return Status::Success;
}
