//===- TensorMap.h - TMA descriptors on the host ---------------*- C++ -*-===//
#ifndef TXL_RUNTIME_TENSORMAP_H
#define TXL_RUNTIME_TENSORMAP_H

#include "txl/Runtime/Kernel.h"

#include <cstdint>
#include <string>

namespace txl {

/// A tiled TMA descriptor request in the driver's order (innermost first).
struct TensorMapSpec {
  const void *base = nullptr;
  unsigned rank = 0;
  const uint64_t *dims = nullptr;         ///< rank entries, elements
  const uint64_t *stridesBytes = nullptr; ///< rank-1 entries (dims 1..)
  const uint32_t *box = nullptr;          ///< rank entries, elements
  std::string dtype;                      ///< "fp16", "bf16", "i8", ...
  int swizzleBytes = 0;                   ///< 0, 32, 64, 128
};

/// Checks `spec` against the driver's documented limits; "" if valid.
std::string validateTensorMapSpec(const TensorMapSpec &spec);

/// Encodes with cuTensorMapEncodeTiled into the 128 bytes at `out`.
Status encodeTensorMap(const TensorMapSpec &spec, void *out,
                       std::string &error);

} // namespace txl

#endif // TXL_RUNTIME_TENSORMAP_H
