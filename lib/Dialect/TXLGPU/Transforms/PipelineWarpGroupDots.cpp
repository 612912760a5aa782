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
// The operands are register values stored each trip, usually after layout
// conversions (upcasts, shuffles) whose shared scratch is live next to the
// stages; so a loop is left synchronous when its two stages and one more
// copy of the operands do not fit the target's shared memory, or when the
// kernel (num_stages) or the loop (tl.range(num_stages=...)) asks for
// fewer than two stages.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Support/Debug.h"
#include "txl/Support/TargetFeatures.h"

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

/// Why `loop` keeps its dot synchronous, or nothing when it can pipeline.
std::optional<std::string> reasonToSkip(scf::ForOp loop, AccumulatingDot c,
                                        int64_t numStages) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>("txl.num_stages"))
    numStages = attr.getInt();
  if (numStages < kStages)
    return std::to_string(numStages) + " stage(s) asked for";
  int64_t perStage = 0;
  for (Value operand : {Value(c.dot.getA()), Value(c.dot.getB())})
    perStage += cast<MemDescType>(operand.getType()).getSizeInBytes();
  StringRef target;
  if (auto module = loop->getParentOfType<ModuleOp>())
    if (auto attr =
            module->getAttrOfType<StringAttr>(TXLGPUDialect::kTargetAttr))
      target = attr.getValue();
  int64_t limit = ::txl::targetMaxSharedBytesPerBlock(target);
  if ((kStages + 1) * perStage > limit)
    return std::to_string(kStages) + " stages of " + std::to_string(perStage) +
           " operand bytes and the conversions feeding them would not fit "
           "the " +
           std::to_string(limit) + " bytes of shared memory";
  return std::nullopt;
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
  using PipelineWarpGroupDotsBase::PipelineWarpGroupDotsBase;

  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, AccumulatingDot>> work;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<WarpGroupDotOp> dots(
          loop.getBody()->getOps<WarpGroupDotOp>());
      if (dots.size() != 1)
        return;
      auto c = match(loop, dots.front());
      if (c) {
        if (auto why = reasonToSkip(loop, *c, numStages))
          TXL_DEBUG(llvm::dbgs()
                    << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                    << ": not pipelined: " << *why << "\n");
        else
          work.push_back({loop, *c});
      } else
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
