//===- TensorMap.cpp - cuTensorMapEncodeTiled wrapper ---------------------===//
#include "txl/Runtime/TensorMap.h"
#include "txl/Runtime/TensorMapCodes.h"

#include <cstring>

using namespace txl;

namespace {
// CUtensorMapDataType values (cuda.h).
enum : int {
  dtUInt8 = 0,
  dtUInt16 = 1,
  dtUInt32 = 2,
  dtInt32 = 3,
  dtUInt64 = 4,
  dtInt64 = 5,
  dtFloat16 = 6,
  dtFloat32 = 7,
  dtFloat64 = 8,
  dtBFloat16 = 9,
};

/// Driver data type and element size of a signature type; false if none.
bool tensorMapDataType(const std::string &dtype, int &type, int &bytes) {
  struct Entry {
    const char *name;
    int type, bytes;
  };
  // TMA moves bytes: 8-bit types all travel as UINT8, signed 16-bit as
  // UINT16; only the width matters unless OOB fill is NaN.
  static const Entry table[] = {
      {"i8", dtUInt8, 1},       {"u8", dtUInt8, 1},
      {"fp8e4nv", dtUInt8, 1},  {"fp8e5", dtUInt8, 1},
      {"i16", dtUInt16, 2},     {"u16", dtUInt16, 2},
      {"fp16", dtFloat16, 2},   {"bf16", dtBFloat16, 2},
      {"i32", dtInt32, 4},      {"u32", dtUInt32, 4},
      {"fp32", dtFloat32, 4},   {"i64", dtInt64, 8},
      {"u64", dtUInt64, 8},     {"fp64", dtFloat64, 8}};
  for (const Entry &entry : table)
    if (dtype == entry.name) {
      type = entry.type;
      bytes = entry.bytes;
      return true;
    }
  return false;
}

} // namespace

std::string txl::validateTensorMapSpec(const TensorMapSpec &spec) {
  int type = 0, elementBytes = 0;
  if (!tensorMapDataType(spec.dtype, type, elementBytes))
    return "tensor map: unsupported dtype '" + spec.dtype + "'";
  if (spec.rank < 1 || spec.rank > 5)
    return "tensor map: rank must be 1..5";
  if (!spec.base || !spec.dims || !spec.box || (spec.rank > 1 && !spec.stridesBytes))
    return "tensor map: null base, dims, strides or box";
  if (reinterpret_cast<uintptr_t>(spec.base) % 16 != 0)
    return "tensor map: base address must be 16-byte aligned";
  int swizzle = tensorMapSwizzleMode(spec.swizzleBytes);
  if (swizzle < 0)
    return "tensor map: swizzle must be 0, 32, 64 or 128 bytes";
  for (unsigned i = 0; i < spec.rank; ++i) {
    if (spec.dims[i] == 0 || spec.dims[i] > (uint64_t(1) << 32))
      return "tensor map: dim " + std::to_string(i) + " must be in 1..2^32";
    if (spec.box[i] == 0 || spec.box[i] > 256)
      return "tensor map: box " + std::to_string(i) + " must be in 1..256";
  }
  for (unsigned i = 0; i + 1 < spec.rank; ++i)
    if (spec.stridesBytes[i] % 16 != 0 || spec.stridesBytes[i] >= (uint64_t(1) << 40))
      return "tensor map: stride " + std::to_string(i + 1) +
             " must be a multiple of 16 bytes below 2^40";
  uint64_t innerBytes = uint64_t(spec.box[0]) * elementBytes;
  if (innerBytes % 16 != 0)
    return "tensor map: the inner box must span a multiple of 16 bytes";
  if (spec.swizzleBytes != 0 && innerBytes > uint64_t(spec.swizzleBytes))
    return "tensor map: the inner box (" + std::to_string(innerBytes) +
           " bytes) exceeds the " + std::to_string(spec.swizzleBytes) +
           "-byte swizzle span";
  return "";
}

Status txl::encodeTensorMap(const TensorMapSpec &spec, void *out,
                            std::string &error) {
  if (!out) {
    error = "tensor map: out is null";
    return Status::InvalidArgument;
  }
  error = validateTensorMapSpec(spec);
  if (!error.empty())
    return Status::InvalidArgument;
  const cuda::Driver *driver = cuda::getDriver(error);
  if (!driver)
    return Status::NoDriver;
  int type = 0, elementBytes = 0;
  tensorMapDataType(spec.dtype, type, elementBytes);
  uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  cuda::CUtensorMap map; // the driver wants 128-byte alignment; `out` may not
  const int interleaveNone = 0, l2Promotion256 = 3, oobFillZero = 0;
  cuda::CUresult result = driver->cuTensorMapEncodeTiled(
      &map, type, spec.rank, const_cast<void *>(spec.base), spec.dims,
      spec.stridesBytes, spec.box, elementStrides, interleaveNone,
      tensorMapSwizzleMode(spec.swizzleBytes), l2Promotion256, oobFillZero);
  if (result != cuda::CUDA_SUCCESS) {
    error = driver->describe("cuTensorMapEncodeTiled", result);
    return Status::Cuda;
  }
  std::memcpy(out, &map, sizeof(map));
  return Status::Success;
}
