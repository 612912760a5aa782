//===- TCGen05.h - facts shared by the tcgen05 passes ----------*- C++ -*-===//
#ifndef TXL_DIALECT_TXLGPU_IR_TCGEN05_H
#define TXL_DIALECT_TXLGPU_IR_TCGEN05_H

#include "llvm/ADT/StringRef.h"

namespace mlir::txlgpu {

/// On a txlgpu.tcgen05_mma made for a plain tl.dot (AssignLayouts): the
/// op is synchronous. Its one barrier is initialized to the CTA's thread
/// count + 1; after the elected thread commits the MMAs to it, every thread
/// arrives and waits on its own arrival's phase token, which completes only
/// with the commit's arrival - so no phase needs tracking across loop
/// iterations, and every thread may read the accumulator afterwards.
constexpr llvm::StringLiteral kSyncCommitAttr = "txlgpu.sync_commit";

} // namespace mlir::txlgpu

#endif
