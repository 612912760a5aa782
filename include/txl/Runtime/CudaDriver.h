//===- CudaDriver.h - libcuda.so.1 opened with dlopen -----------*- C++ -*-===//
//
// The few driver types and entry points the runtime uses, declared here so
// that building needs no CUDA toolkit and compiling needs no driver. The
// layouts mirror cuda.h (checked against it by a unit test where cuda.h is
// installed).
//
//===----------------------------------------------------------------------===//
#ifndef TXL_RUNTIME_CUDADRIVER_H
#define TXL_RUNTIME_CUDADRIVER_H

#include <cstdint>
#include <string>

namespace txl {
namespace cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUdeviceptr = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
constexpr unsigned kMemHostAllocPortable = 1;  // CU_MEMHOSTALLOC_PORTABLE
constexpr unsigned kMemHostAllocDeviceMap = 2; // CU_MEMHOSTALLOC_DEVICEMAP

union CUlaunchAttributeValue {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
};

struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  CUlaunchAttributeValue value;
};

struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

/// CUtensorMap: 128 opaque bytes, 128-byte aligned (as cuda.h declares it).
struct alignas(128) CUtensorMap {
  uint64_t opaque[16];
};

/// Entry points resolved from libcuda.so.1 (all-or-nothing).
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **);
  // TXL_DEBUG_SYNC: the host-mapped record of timed-out mbarrier waits.
  CUresult (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule,
                                const char *);
  CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuStreamSynchronize)(CUstream);
  // Global scratch of kernels that build TMA descriptors in the kernel.
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuTensorMapEncodeTiled)(CUtensorMap *, int, uint32_t, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int);

  /// "cuFoo failed: CUDA_ERROR_X (message)".
  std::string describe(const char *call, CUresult result) const;
};

/// Opens libcuda.so.1 once ($TXL_LIBCUDA overrides the path) and calls
/// cuInit(0). Returns null with `error` set when there is no usable driver;
/// the outcome of the first attempt is remembered.
const Driver *getDriver(std::string &error);

/// Makes sure a context is current: the current one, else the primary
/// context of device 0 (retained and made current).
bool ensureContext(const Driver &driver, CUcontext &context,
                   std::string &error);

/// Compute capability of the current context's device (device 0 if none).
bool deviceCapability(int &major, int &minor, std::string &error);

/// "sm_90a"-style target name of the current device, or "" without a driver.
std::string currentDeviceTarget();

} // namespace cuda
} // namespace txl

#endif // TXL_RUNTIME_CUDADRIVER_H
