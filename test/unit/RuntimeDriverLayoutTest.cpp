//===- RuntimeDriverLayoutTest.cpp - Our driver decls vs cuda.h -----------===//
//
// CudaDriver.h declares the driver structs by hand so that building needs
// no CUDA. Where cuda.h is installed, check the layouts and constants match.
//
//===----------------------------------------------------------------------===//
#ifdef TXL_HAVE_CUDA_H
#include <cuda.h>
#endif
#include "txl/Runtime/CudaDriver.h"

#include <gtest/gtest.h>

#include <cstddef>

namespace ours = txl::cuda;

#ifdef TXL_HAVE_CUDA_H
static_assert(sizeof(ours::CUlaunchAttribute) == sizeof(::CUlaunchAttribute));
static_assert(offsetof(ours::CUlaunchAttribute, value) ==
              offsetof(::CUlaunchAttribute, value));
static_assert(sizeof(ours::CUlaunchConfig) == sizeof(::CUlaunchConfig));
static_assert(offsetof(ours::CUlaunchConfig, sharedMemBytes) ==
              offsetof(::CUlaunchConfig, sharedMemBytes));
static_assert(offsetof(ours::CUlaunchConfig, hStream) ==
              offsetof(::CUlaunchConfig, hStream));
static_assert(offsetof(ours::CUlaunchConfig, attrs) ==
              offsetof(::CUlaunchConfig, attrs));
static_assert(offsetof(ours::CUlaunchConfig, numAttrs) ==
              offsetof(::CUlaunchConfig, numAttrs));
static_assert(sizeof(ours::CUtensorMap) == sizeof(::CUtensorMap));
static_assert(ours::kMemHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE);
static_assert(ours::kMemHostAllocDeviceMap == CU_MEMHOSTALLOC_DEVICEMAP);
static_assert(sizeof(ours::CUdeviceptr) == sizeof(::CUdeviceptr));
static_assert(alignof(ours::CUtensorMap) == alignof(::CUtensorMap));
static_assert(ours::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ==
              ::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
static_assert(ours::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ==
              ::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
static_assert(ours::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED ==
              ::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
static_assert(ours::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ==
              ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(ours::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ==
              ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(ours::CU_JIT_ERROR_LOG_BUFFER == ::CU_JIT_ERROR_LOG_BUFFER);
static_assert(ours::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES ==
              ::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
static_assert(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 == 9 &&
              CU_TENSOR_MAP_DATA_TYPE_FLOAT16 == 6 &&
              CU_TENSOR_MAP_SWIZZLE_128B == 3 &&
              CU_TENSOR_MAP_L2_PROMOTION_L2_256B == 3);
#endif

TEST(RuntimeDriverLayout, StructSizes) {
  // The ABI facts the launcher relies on, checked even without cuda.h.
  EXPECT_EQ(sizeof(ours::CUlaunchAttribute), 72u);
  EXPECT_EQ(offsetof(ours::CUlaunchConfig, hStream), 32u);
  EXPECT_EQ(sizeof(ours::CUtensorMap), 128u);
  EXPECT_EQ(alignof(ours::CUtensorMap), 128u);
}

#include "txl/txl.h"

// The Python binding packs txl_launch_packet by hand at these offsets.
TEST(RuntimeDriverLayout, LaunchPacketOffsets) {
  EXPECT_EQ(offsetof(txl_launch_packet, kernel), 0u);
  EXPECT_EQ(offsetof(txl_launch_packet, stream), 8u);
  EXPECT_EQ(offsetof(txl_launch_packet, grid), 16u);
  EXPECT_EQ(offsetof(txl_launch_packet, nargs), 28u);
  EXPECT_EQ(offsetof(txl_launch_packet, args), 32u);
  EXPECT_EQ(sizeof(txl_launch_packet), 40u);
}
