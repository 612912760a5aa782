//===- SharedMemoryLiveness.h - when shared buffers hold data ---*- C++ -*-===//
//
// AllocateSharedMemory lets two buffers share bytes when their live ranges
// do not overlap. A buffer's live range is an interval of program order
// (ops numbered in a pre-order walk, a region op's end after its regions):
// from its first access to its last, where an asynchronous access (a wgmma
// reading its operand tiles, a TMA store reading its source) lasts until
// the wait that retires it, and a loop that the range enters, leaves, or
// carries data around (a read that an iteration can reach before any
// overwrite of the whole buffer) is covered entirely.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_DIALECT_TXLGPU_TRANSFORMS_SHAREDMEMORYLIVENESS_H
#define TXL_DIALECT_TXLGPU_TRANSFORMS_SHAREDMEMORYLIVENESS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::txlgpu {

/// Position of every op in a pre-order walk of `root`; an op's `end` comes
/// after every op of its regions.
class ProgramOrder {
public:
  explicit ProgramOrder(Operation *root);
  int64_t start(Operation *op) const { return spans.lookup(op).first; }
  int64_t end(Operation *op) const { return spans.lookup(op).second; }

private:
  void number(Operation *op, int64_t &next);
  llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> spans;
};

/// One read or write of a buffer's bytes. A kill overwrites all of them
/// (so the old contents are dead before it); `selfSynchronizing` accesses
/// synchronize the threads sharing the buffer before touching it (their
/// lowering starts with a barrier), so a buffer that used the same bytes
/// before is done with them.
struct BufferAccess {
  Operation *op;
  bool kill = false;
  bool selfSynchronizing = false;
  /// An asynchronous-proxy write (TMA), which a generic-proxy access of
  /// the same bytes must be fenced against.
  bool asyncProxyWrite = false;
  /// A wait that retires an earlier asynchronous access: it touches no
  /// bytes itself, it only keeps the buffer live until it.
  bool retires = false;
};

/// The accesses to the bytes of `root` (a shared-memory descriptor value)
/// through index, view and reshape ops, with the waits that retire
/// asynchronous accesses as extra accesses (a wgmma's dot_wait(0), a TMA
/// store's tma_store_wait(0), a TMA copy's wait on its mbarrier -- for a
/// compiler-made ring the end of its loop's body --, a cp.async's
/// async_wait(0); none found: the function's end). Returns
/// false when some user is not understood or writes on another CTA's
/// schedule (a multicast): the buffer must then not share bytes.
bool collectBufferAccesses(Value root, SmallVectorImpl<BufferAccess> &out);

/// The live interval [first, last] of a buffer owned by `owner` (its
/// allocation; a loop around the allocation starts a fresh buffer every
/// iteration) with these accesses; std::nullopt when there are none.
std::optional<std::pair<int64_t, int64_t>>
liveInterval(Operation *owner, ArrayRef<BufferAccess> accesses,
             const ProgramOrder &order);

/// The accesses that can be the first of the buffer after control enters
/// the innermost block holding all of them (or re-enters it: a loop body):
/// those that must be preceded by a barrier when the buffer's bytes were
/// used by another buffer before. Retiring waits are never first (their
/// asynchronous access ran before them).
SmallVector<BufferAccess> firstAccesses(ArrayRef<BufferAccess> accesses);

/// Bytes `op` exchanges through a shared scratch buffer of its own (a
/// layout conversion, a reduction across warps, ...; 0 for most ops), as
/// AllocateSharedMemory reserves them.
int64_t sharedScratchBytes(Operation *op);

/// Whether `op` may run on only some threads of the CTA: it is inside an
/// scf.if or loop whose condition or bounds depend on the thread index
/// (a barrier there would deadlock).
bool inThreadDependentRegion(Operation *op);

} // namespace mlir::txlgpu

#endif
