//===- CudaDriver.cpp - Load libcuda with dlopen --------------------------===//
#include "txl/Runtime/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace txl;
using namespace txl::cuda;

namespace {
template <typename Fn>
bool resolve(void *library, const char *name, Fn &slot, std::string &error) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  if (!slot)
    error = std::string("libcuda lacks ") + name +
            " (driver too old for CUDA 12?)";
  return slot != nullptr;
}

bool resolveAll(void *lib, Driver &d, std::string &error) {
  return resolve(lib, "cuInit", d.cuInit, error) &&
         resolve(lib, "cuGetErrorName", d.cuGetErrorName, error) &&
         resolve(lib, "cuGetErrorString", d.cuGetErrorString, error) &&
         resolve(lib, "cuDeviceGet", d.cuDeviceGet, error) &&
         resolve(lib, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, error) &&
         resolve(lib, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain,
                 error) &&
         resolve(lib, "cuCtxGetCurrent", d.cuCtxGetCurrent, error) &&
         resolve(lib, "cuCtxSetCurrent", d.cuCtxSetCurrent, error) &&
         resolve(lib, "cuCtxGetDevice", d.cuCtxGetDevice, error) &&
         resolve(lib, "cuModuleLoadDataEx", d.cuModuleLoadDataEx, error) &&
         resolve(lib, "cuModuleUnload", d.cuModuleUnload, error) &&
         resolve(lib, "cuModuleGetFunction", d.cuModuleGetFunction, error) &&
         resolve(lib, "cuFuncSetAttribute", d.cuFuncSetAttribute, error) &&
         resolve(lib, "cuLaunchKernelEx", d.cuLaunchKernelEx, error) &&
         resolve(lib, "cuModuleGetGlobal_v2", d.cuModuleGetGlobal, error) &&
         resolve(lib, "cuMemHostAlloc", d.cuMemHostAlloc, error) &&
         resolve(lib, "cuMemHostGetDevicePointer_v2",
                 d.cuMemHostGetDevicePointer, error) &&
         resolve(lib, "cuMemFreeHost", d.cuMemFreeHost, error) &&
         resolve(lib, "cuMemcpyHtoD_v2", d.cuMemcpyHtoD, error) &&
         resolve(lib, "cuStreamSynchronize", d.cuStreamSynchronize, error) &&
         resolve(lib, "cuMemAlloc_v2", d.cuMemAlloc, error) &&
         resolve(lib, "cuMemFree_v2", d.cuMemFree, error) &&
         resolve(lib, "cuCtxSynchronize", d.cuCtxSynchronize, error) &&
         resolve(lib, "cuTensorMapEncodeTiled", d.cuTensorMapEncodeTiled,
                 error);
}

struct LoadedDriver {
  Driver driver{};
  bool ok = false;
  std::string error;
};

LoadedDriver &loadDriverOnce() {
  static LoadedDriver loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    const char *path = std::getenv("TXL_LIBCUDA");
    if (!path || !*path)
      path = "libcuda.so.1";
    // RTLD_LOCAL: our lookups must not interpose on anyone else's.
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *reason = dlerror();
      loaded.error = std::string("cannot load the CUDA driver (") + path +
                     "): " + (reason ? reason : "unknown error");
      return;
    }
    if (!resolveAll(library, loaded.driver, loaded.error))
      return;
    CUresult result = loaded.driver.cuInit(0);
    if (result != CUDA_SUCCESS) {
      loaded.error = loaded.driver.describe("cuInit", result);
      return;
    }
    loaded.ok = true;
  });
  return loaded;
}
} // namespace

std::string Driver::describe(const char *call, CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string message = std::string(call) + " failed: ";
  message += name ? name : ("CUDA error " + std::to_string(result));
  if (text)
    message += std::string(" (") + text + ")";
  return message;
}

const Driver *cuda::getDriver(std::string &error) {
  LoadedDriver &loaded = loadDriverOnce();
  if (!loaded.ok) {
    error = loaded.error;
    return nullptr;
  }
  return &loaded.driver;
}

bool cuda::ensureContext(const Driver &driver, CUcontext &context,
                         std::string &error) {
  CUresult result = driver.cuCtxGetCurrent(&context);
  if (result != CUDA_SUCCESS) {
    error = driver.describe("cuCtxGetCurrent", result);
    return false;
  }
  if (context)
    return true;
  CUdevice device = 0;
  if ((result = driver.cuDeviceGet(&device, 0)) != CUDA_SUCCESS) {
    error = driver.describe("cuDeviceGet", result);
    return false;
  }
  // The primary context is the one the CUDA runtime (and PyTorch) use, so
  // modules loaded here are shared with them.
  if ((result = driver.cuDevicePrimaryCtxRetain(&context, device)) !=
      CUDA_SUCCESS) {
    error = driver.describe("cuDevicePrimaryCtxRetain", result);
    return false;
  }
  if ((result = driver.cuCtxSetCurrent(context)) != CUDA_SUCCESS) {
    error = driver.describe("cuCtxSetCurrent", result);
    return false;
  }
  return true;
}

bool cuda::deviceCapability(int &major, int &minor, std::string &error) {
  const Driver *driver = getDriver(error);
  if (!driver)
    return false;
  CUcontext context = nullptr;
  CUdevice device = 0;
  CUresult result = driver->cuCtxGetCurrent(&context);
  if (result == CUDA_SUCCESS && context)
    result = driver->cuCtxGetDevice(&device);
  else
    result = driver->cuDeviceGet(&device, 0);
  if (result != CUDA_SUCCESS) {
    error = driver->describe("cuDeviceGet", result);
    return false;
  }
  result = driver->cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  if (result == CUDA_SUCCESS)
    result = driver->cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  if (result != CUDA_SUCCESS) {
    error = driver->describe("cuDeviceGetAttribute", result);
    return false;
  }
  return true;
}

std::string cuda::currentDeviceTarget() {
  int major = 0, minor = 0;
  std::string error;
  if (!deviceCapability(major, minor, error))
    return "";
  // Hopper and later need the arch-specific "a" targets for wgmma, TMA
  // multicast, setmaxnreg and tcgen05.
  std::string target = "sm_" + std::to_string(major) + std::to_string(minor);
  if (major >= 9)
    target += "a";
  return target;
}
