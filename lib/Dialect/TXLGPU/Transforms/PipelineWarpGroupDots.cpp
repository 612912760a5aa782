//===- PipelineWarpGroupDots.cpp - overlap staging copies with wgmma ------===//
//
// After AssignLayouts a plain matmul loop body reads
//
//   %as = local_alloc %a ; %bs = local_alloc %b
//   %d = warp_group_dot %as, %bs, %acc ; %w = warp_group_dot_wait %d {0}
//   scf.yield ..., %w
//
// so every iteration waits for its tensor-core work before copying the next
// operands. Here each local_alloc becomes a store into one of two stages of
// a buffer allocated before the loop (stage = iteration parity) and the
// wait keeps one group pending. The group that read a stage is two
// iterations old when the stage is rewritten, so `pendings = 1` has retired
// it; the copy's leading barrier makes every warpgroup's wait count. The
// accumulator stays in flight between iterations, which is fine because
// only the next wgmma reads it; one wait for everything follows the loop.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PIPELINEWARPGROUPDOTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-pipeline-warp-group-dots"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

constexpr int64_t kStages = 2;

/// The accumulating dot of `loop` when both its operands are staged by a
/// local_alloc in the loop body.
std::optional<AccumulatingDot> match(scf::ForOp loop, WarpGroupDotOp dot) {
  auto c = matchAccumulatingDot(loop, dot);
  if (!c)
    return std::nullopt;
  for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
    auto alloc = operand.getDefiningOp<LocalAllocOp>();
    if (!alloc || alloc->getParentOp() != loop.getOperation() ||
        !alloc->hasOneUse())
      return std::nullopt;
  }
  return c;
}

void pipeline(scf::ForOp loop, AccumulatingDot c) {
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = c.dot.getLoc();
  // stage = ((iv - lb) / step) % 2
  Value trip = arith::DivSIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getInductionVar(),
                            loop.getLowerBound()),
      loop.getStep());
  Value stage = arith::RemSIOp::create(
      b, loc, trip,
      arith::ConstantOp::create(b, loc,
                                b.getIntegerAttr(trip.getType(), kStages)));
  if (!stage.getType().isInteger(32))
    stage = arith::TruncIOp::create(b, loc, b.getI32Type(), stage);
  stageOperand(b, loop, c.dot.getA().getDefiningOp<LocalAllocOp>(), stage,
               kStages);
  stageOperand(b, loop, c.dot.getB().getDefiningOp<LocalAllocOp>(), stage,
               kStages);
  c.wait.setPendings(1);
  drainAfterLoop(loop, c);
}

struct PipelineWarpGroupDotsPass
    : public txlgpu::impl::PipelineWarpGroupDotsBase<
          PipelineWarpGroupDotsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, AccumulatingDot>> work;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<WarpGroupDotOp> dots(
          loop.getBody()->getOps<WarpGroupDotOp>());
      if (dots.size() != 1)
        return;
      if (auto c = match(loop, dots.front()))
        work.push_back({loop, *c});
      else
        TXL_DEBUG(llvm::dbgs()
                  << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                  << ": not pipelined: the dot does not accumulate a loop-"
                     "carried value from operands staged in the loop\n");
    });
    for (auto &[loop, c] : work)
      pipeline(loop, c);
  }
};

} // namespace
