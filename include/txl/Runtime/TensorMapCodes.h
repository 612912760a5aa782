//===- TensorMapCodes.h - CUtensorMap field codes --------------*- C++ -*-===//
//
// Codes that both the host encoder (cuTensorMapEncodeTiled) and the
// in-kernel builder (tensormap.replace) write into a TMA descriptor, kept in
// one place so the two can never disagree.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_RUNTIME_TENSORMAPCODES_H
#define TXL_RUNTIME_TENSORMAPCODES_H

#include <cstdint>

namespace txl {

/// The swizzle-mode code of a swizzle span in bytes: 0 (none), 32, 64, 128
/// -> 0, 1, 2, 3; -1 for anything else.
inline int tensorMapSwizzleMode(int64_t bytes) {
  switch (bytes) {
  case 0:
    return 0;
  case 32:
    return 1;
  case 64:
    return 2;
  case 128:
    return 3;
  default:
    return -1;
  }
}

} // namespace txl

#endif // TXL_RUNTIME_TENSORMAPCODES_H
