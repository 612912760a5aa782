//===- DebugSync.cpp - the host side of TXL_DEBUG_SYNC --------------------===//
//
// A kernel compiled with bounded mbarrier waits reports a timed-out wait
// into a record in host-mapped memory (the device side and the record
// layout are in lib/Conversion/TXLGPUToLLVM/DebugSyncToLLVM.cpp). Host
// memory stays readable after the trap has destroyed the CUDA context, so
// the launch can say which wait of which source line hung.
//
//===----------------------------------------------------------------------===//
#include "txl/Runtime/Kernel.h"

#include <cstring>

using namespace txl;
using namespace txl::cuda;

namespace {
constexpr size_t kRecordWords = 16;
constexpr const char *kRecordGlobal = "__txl_debug_record";
} // namespace

Status RuntimeKernel::attachDebugRecord(const Driver &driver, CUmodule module,
                                        std::string &error) {
  if (!debugRecord) {
    void *host = nullptr;
    CUresult result =
        driver.cuMemHostAlloc(&host, kRecordWords * 4,
                              kMemHostAllocPortable | kMemHostAllocDeviceMap);
    if (result != CUDA_SUCCESS) {
      error = driver.describe("cuMemHostAlloc (TXL_DEBUG_SYNC record)", result);
      return Status::Cuda;
    }
    std::memset(host, 0, kRecordWords * 4);
    debugRecord = static_cast<uint32_t *>(host);
  }
  CUdeviceptr device = 0, global = 0;
  size_t size = 0;
  CUresult result = driver.cuMemHostGetDevicePointer(&device, debugRecord, 0);
  if (result == CUDA_SUCCESS)
    result = driver.cuModuleGetGlobal(&global, &size, module, kRecordGlobal);
  if (result == CUDA_SUCCESS && size == sizeof(device))
    result = driver.cuMemcpyHtoD(global, &device, sizeof(device));
  if (result != CUDA_SUCCESS) {
    error = driver.describe("attaching the TXL_DEBUG_SYNC record", result);
    return Status::Cuda;
  }
  return Status::Success;
}

std::string RuntimeKernel::describeDebugRecord() const {
  if (!debugRecord || !debugRecord[0])
    return "";
  const volatile uint32_t *r = debugRecord;
  std::string where = launchInfo.sourceFile.empty() ? std::string("<kernel>")
                                                    : launchInfo.sourceFile;
  return where + ":" + std::to_string(r[1]) + ":" + std::to_string(r[2]) +
         ": error: txl.mbar_wait timed out (TXL_DEBUG_SYNC) in kernel '" +
         launchInfo.name + "': block (" + std::to_string(r[4]) + ", " +
         std::to_string(r[5]) + ", " + std::to_string(r[6]) + ") thread " +
         std::to_string(r[7]) + " waited for phase parity " +
         std::to_string(r[3]) + " of the mbarrier at shared address " +
         std::to_string(r[8]) +
         " (a deadlock: arrivals or TMA bytes short of its count, or a "
         "phase mismatch); the CUDA context is no longer usable\n";
}
