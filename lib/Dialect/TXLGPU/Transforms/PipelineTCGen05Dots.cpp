//===- PipelineTCGen05Dots.cpp - a plain dot's K loop on tcgen05 ----------===//
//
// After AssignLayouts a plain matmul loop on sm_100a reads
//
//   tmem_store %acc, %d                       (the running accumulator)
//   %as = local_alloc %a ; %bs = local_alloc %b
//   tcgen05_mma %as, %bs, %d, true commit %bar {sync_commit}
//   %r = tmem_load %d ; scf.yield ..., %r
//
// so every iteration moves the accumulator through registers and waits for
// its MMAs before copying the next operands. Here the accumulator stays in
// tensor memory for the whole loop (stored once before it, read once after
// it), each local_alloc becomes a store into one of two stages of a buffer
// made before the loop, and the MMAs of iteration i commit to a barrier of
// their stage instead of being waited for: iteration i + 2 waits on that
// barrier before it overwrites the stage, so the next slice's copies
// overlap this slice's MMAs. After the loop every thread waits for the last
// commit (tcgen05 MMAs of one thread complete in order) and reads the
// accumulator. Loops whose operands cp.async can stream are taken by
// PipelineAsyncCopies first (S stages, the same commit ring); this pass
// takes the rest.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PIPELINETCGEN05DOTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-pipeline-tcgen05-dots"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

constexpr int64_t kStages = 2;

void pipeline(scf::ForOp loop, TCGen05LoopDot c) {
  Location loc = c.mma.getLoc();
  auto a = c.mma.getA().getDefiningOp<LocalAllocOp>();
  auto bAlloc = c.mma.getB().getDefiningOp<LocalAllocOp>();
  auto [ring, trip] = makeTCGen05LoopAsync(loop, c, kStages);
  // Before restaging, the MMAs two trips back (this stage's readers) must
  // be done.
  OpBuilder b(loop.getContext());
  b.setInsertionPointAfterValue(trip);
  waitForStageReaders(b, loc, ring, trip, kStages);
  Value stage = arith::RemSIOp::create(
      b, loc, trip, arith::ConstantIntOp::create(b, loc, kStages, 32));
  stageOperand(b, loop, a, stage, kStages);
  stageOperand(b, loop, bAlloc, stage, kStages);
}

struct PipelineTCGen05DotsPass
    : public txlgpu::impl::PipelineTCGen05DotsBase<PipelineTCGen05DotsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, TCGen05LoopDot>> work;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<TCGen05MMAOp> mmas(loop.getBody()->getOps<TCGen05MMAOp>());
      if (mmas.size() != 1)
        return;
      if (auto c = matchTCGen05LoopDot(loop, mmas.front()))
        work.push_back({loop, *c});
      else
        TXL_DEBUG(llvm::dbgs()
                  << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                  << ": not pipelined: the MMA does not accumulate a loop-"
                     "carried value from operands staged in the loop\n");
    });
    for (auto &[loop, c] : work)
      pipeline(loop, c);
  }
};

} // namespace
