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
// tl.dot_scaled's block-scaled MMA (tcgen05_mma_scaled) is pipelined the
// same way; its scale tiles are staged like A and B, and so are the tensor-
// memory columns its tcgen05.cp copies land in: the copies of trip i + 2
// overwrite a stage only after the MMAs of trip i that read it are done
// (the same wait), as nothing orders a copy after an earlier MMA.
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

/// `columns` (a view of a one-stage tmem_alloc at the kernel's entry) as
/// stage `stage` of a `kStages`-deep allocation made in its place.
Value stageColumns(OpBuilder &b, Value columns, Value stage) {
  auto index = columns.getDefiningOp<MemDescIndexOp>();
  auto alloc = index.getSrc().getDefiningOp<TMemAllocOp>();
  MemDescType type = alloc.getType();
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = kStages;
  OpBuilder at(alloc);
  auto staged = TMemAllocOp::create(at, alloc.getLoc(),
                                    MemDescType::get(b.getContext(), shape,
                                                     type.getElementType(),
                                                     type.getEncoding()),
                                    IntegerAttr(), IntegerAttr());
  Value view =
      MemDescIndexOp::create(b, index.getLoc(), index.getType(), staged, stage);
  if (index->hasOneUse()) {
    index->getResult(0).replaceAllUsesWith(view);
    index.erase();
    if (alloc->use_empty())
      alloc.erase();
  }
  return view;
}

void pipeline(scf::ForOp loop, TCGen05LoopDot c) {
  Location loc = c.mma->getLoc();
  SmallVector<LocalAllocOp> tiles;
  for (Value tile : stagedTiles(c.mma))
    tiles.push_back(tile.getDefiningOp<LocalAllocOp>());
  auto [ring, trip] = makeTCGen05LoopAsync(loop, c, kStages);
  // Before restaging, the MMAs two trips back (this stage's readers) must
  // be done.
  OpBuilder b(loop.getContext());
  b.setInsertionPointAfterValue(trip);
  waitForStageReaders(b, loc, ring, trip, kStages);
  Value stage = arith::RemSIOp::create(
      b, loc, trip, arith::ConstantIntOp::create(b, loc, kStages, 32));
  for (LocalAllocOp tile : tiles)
    stageOperand(b, loop, tile, stage, kStages);
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(c.mma)) {
    b.setInsertionPoint(scaled);
    scaled.getAScaleMutable().assign(
        stageColumns(b, scaled.getAScale(), stage));
    scaled.getBScaleMutable().assign(
        stageColumns(b, scaled.getBScale(), stage));
  }
}

struct PipelineTCGen05DotsPass
    : public txlgpu::impl::PipelineTCGen05DotsBase<PipelineTCGen05DotsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, TCGen05LoopDot>> work;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<Operation *> mmas;
      for (Operation &op : *loop.getBody())
        if (isa<TCGen05MMAOp, TCGen05MMAScaledOp>(op))
          mmas.push_back(&op);
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
