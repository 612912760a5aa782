//===- LoopPipelining.h - shared pieces of the loop pipelining passes -*- C++
//-*-===//
//
// PrefetchLoopLoads, PipelineAsyncCopies, PipelineWarpGroupDots and
// PipelineTCGen05Dots all restructure a plain matmul loop; the patterns
// they recognize and the address slices they recompute are defined once
// here.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_DIALECT_TXLGPU_TRANSFORMS_LOOPPIPELINING_H
#define TXL_DIALECT_TXLGPU_TRANSFORMS_LOOPPIPELINING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"

namespace mlir::txlgpu {
/// On an mbar_alloc a pipelining pass made (PipelineTMALoads' rings): the
/// protocol is the compiler's, not the user's; CheckMBarrierProtocol does
/// not check it.
constexpr llvm::StringLiteral kCompilerRingAttr = "txlgpu.compiler_ring";

/// A wgmma in a loop body that accumulates into a loop-carried value and is
/// waited for at once: `dot` reads iter arg `acc`, `wait {pendings = 0}`
/// waits for it alone, and the loop yields the wait's result (operand
/// `resultIndex` of the yield).
struct AccumulatingDot {
  WarpGroupDotOp dot;
  WarpGroupDotWaitOp wait;
  unsigned resultIndex;
};

std::optional<AccumulatingDot> matchAccumulatingDot(scf::ForOp loop,
                                                    WarpGroupDotOp dot);

/// After `wait` keeps groups in flight across iterations: one wait for
/// everything follows the loop, and the loop's users read its result.
/// The accumulator's initial value also passes through a wait (nothing is
/// pending there, it costs one instruction) so that it enters the loop in
/// registers defined before the loop's zero-trip branch: otherwise LLVM
/// materializes the constant on the edge that skips the loop, in a block
/// laid out after it, and ptxas, seeing accumulator registers written by a
/// non-wgmma instruction inside the wgmma pipeline, serializes every wgmma
/// of the kernel (C7515).
void drainAfterLoop(scf::ForOp loop, AccumulatingDot match);

/// A plain dot's tcgen05 MMA (a TCGen05MMAOp, or tl.dot_scaled's
/// TCGen05MMAScaledOp) in a loop body in its synchronous form: the running
/// accumulator (iter arg `iterArg`) is stored to TMEM (`store`), the MMA
/// accumulates into it and waits for its commit (kSyncCommitAttr), and the
/// loop yields its read-back (`load`). The shared operands (A and B, and a
/// scaled MMA's scale tiles: stagedTiles) are local_allocs in the body.
struct TCGen05LoopDot {
  Operation *mma;
  TMemStoreOp store;
  TMemLoadOp load;
  unsigned iterArg;
};

std::optional<TCGen05LoopDot> matchTCGen05LoopDot(scf::ForOp loop,
                                                  Operation *mma);

/// The shared tiles a loop's tcgen05 MMA reads that each trip writes: A
/// and B, and for a scaled MMA its two scale tiles.
SmallVector<Value> stagedTiles(Operation *mma);

/// Makes such an MMA asynchronous with its accumulator kept in tensor
/// memory: stored once before the loop, read once after it once every
/// thread waited for the last commit. The MMAs of trip t (= (iv - lb) /
/// step, built at the body's start and returned) commit to barrier
/// t % stages of a new ring of `stages` mbarriers of count 1 (returned
/// too); the caller makes each trip wait for the stage's last readers
/// (waitForStageReaders) before it overwrites their operands.
std::pair<Value, Value>
makeTCGen05LoopAsync(scf::ForOp loop, TCGen05LoopDot dot, int64_t stages);

/// Waits until the MMAs of trip `trip` - `stages` (the last ones that read
/// stage `trip` % `stages`) have completed: the parity of that commit,
/// flipped, so the wait passes at once while `trip` < `stages`.
void waitForStageReaders(OpBuilder &b, Location loc, Value ring, Value trip,
                         int64_t stages);

/// Replaces `alloc` (a local_alloc in `loop`'s body) by a store of its
/// value into stage `stage` of a `stages`-deep buffer made before the loop
/// (marked kLoopStagingAttr); the alloc's users read that stage.
void stageOperand(OpBuilder &b, scf::ForOp loop, LocalAllocOp alloc,
                  Value stage, int64_t stages);

/// The ops of `body` that compute `roots`, in program order; failure if
/// one of them is impure or has regions (it could not be recomputed).
/// Values from outside `body` and block arguments end the walk.
FailureOr<SmallVector<Operation *>> recomputableSlice(ValueRange roots,
                                                      Block *body);

} // namespace mlir::txlgpu

#endif
