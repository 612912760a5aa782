//===- ThreadValues.h - scalar values as each thread of a CTA sees them ---===//
//
// Which threads run an op is decided by the conditions of the scf.if ops
// around it: a role (`txl.is_warp([1])` is `(tid.x >> 5) == 1`), an elected
// or first thread (`tid.x % 128 == 0`), or something uniform across the CTA
// (`k == num_k - 1`). ThreadValues evaluates a scalar integer value once per
// thread id: a value computed from tid.x and constants is Known per thread,
// one that does not depend on the thread (kernel arguments, loop counters,
// program ids) is Uniform, anything else (loads, lane shuffles, elect.sync)
// is Varying. Used by CheckMBarrierProtocol to count the threads that
// arrive on an mbarrier.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_DIALECT_TXLGPU_TRANSFORMS_THREADVALUES_H
#define TXL_DIALECT_TXLGPU_TRANSFORMS_THREADVALUES_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace mlir::txlgpu {

/// What one thread knows about a scalar.
struct ThreadValue {
  enum Kind : uint8_t { Known, Uniform, Varying };
  Kind kind = Varying;
  int64_t value = 0; // when Known; i1 is 0 or 1
  static ThreadValue known(int64_t v) { return {Known, v}; }
  static ThreadValue uniform() { return {Uniform, 0}; }
  static ThreadValue varying() { return {Varying, 0}; }
};

/// One ThreadValue per thread id of the CTA, 0 .. threads - 1.
using ThreadLanes = llvm::SmallVector<ThreadValue, 0>;

class ThreadValues {
public:
  explicit ThreadValues(int64_t threads) : threads(threads) {}
  int64_t numThreads() const { return threads; }
  /// `v` per thread (memoized; loop-carried values are Uniform or Varying).
  const ThreadLanes &get(Value v);

private:
  ThreadLanes compute(Value v);
  ThreadLanes fill(ThreadValue x) const { return ThreadLanes(threads, x); }
  int64_t threads;
  llvm::DenseMap<Value, std::unique_ptr<ThreadLanes>> memo;
};

/// Which threads of the CTA may run `op`: all but those for which an
/// enclosing scf.if's condition is Known to take the other branch (a role
/// check around a layout conversion rules out the other roles' threads).
llvm::BitVector threadsThatMayRun(Operation *op, ThreadValues &values);

} // namespace mlir::txlgpu

#endif
