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
// accumulator.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PIPELINETCGEN05DOTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-pipeline-tcgen05-dots"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

constexpr int64_t kStages = 2;

/// The ops of one synchronous plain-dot MMA in a loop body.
struct LoopDot {
  scf::ForOp loop;
  TCGen05MMAOp mma;
  TMemStoreOp store; // the running accumulator into TMEM
  TMemLoadOp load;   // and back
  unsigned iterArg;  // the accumulator's position among the iter_args
};

std::optional<LoopDot> match(scf::ForOp loop, TCGen05MMAOp mma) {
  Block *body = loop.getBody();
  Value d = mma.getD();
  if (!mma->hasAttr(kSyncCommitAttr) || mma.getBarriers().size() != 1 ||
      !loop.isDefinedOutsideOfLoop(d) || !matchPattern(mma.getUseD(), m_One()))
    return std::nullopt;
  for (Value operand : {mma.getA(), mma.getB()}) {
    auto alloc = operand.getDefiningOp<LocalAllocOp>();
    if (!alloc || alloc->getBlock() != body || !alloc->hasOneUse())
      return std::nullopt;
  }
  LoopDot c{loop, mma, {}, {}, 0};
  for (Operation *user : d.getUsers()) {
    if (!loop->isProperAncestor(user) || user == mma)
      continue;
    if (auto store = dyn_cast<TMemStoreOp>(user); store && !c.store)
      c.store = store;
    else if (auto load = dyn_cast<TMemLoadOp>(user); load && !c.load)
      c.load = load;
    else
      return std::nullopt; // another reader or writer of the accumulator
  }
  if (!c.store || !c.load || c.store->getBlock() != body ||
      c.load->getBlock() != body || !c.store->isBeforeInBlock(mma) ||
      !mma->isBeforeInBlock(c.load) || !c.load->hasOneUse())
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(c.store.getValue());
  Operation *yield = body->getTerminator();
  OpOperand &use = *c.load->use_begin();
  if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0 ||
      !arg.hasOneUse() || use.getOwner() != yield ||
      use.getOperandNumber() != arg.getArgNumber() - 1)
    return std::nullopt;
  c.iterArg = arg.getArgNumber() - 1;
  return c;
}

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value toI32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  if (!v.getType().isInteger(32))
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  return v;
}

/// A barrier of the ring `bars` and the parity of round `trip` on it.
std::pair<Value, Value> stageOf(OpBuilder &b, Location loc, Value bars,
                                Value trip) {
  Type barTy = MemDescType::get(
      b.getContext(), {1}, b.getI64Type(),
      cast<MemDescType>(bars.getType()).getEncoding());
  Value stage = arith::RemSIOp::create(b, loc, trip, i32(b, loc, kStages));
  Value round = arith::DivSIOp::create(b, loc, trip, i32(b, loc, kStages));
  Value parity = arith::AndIOp::create(b, loc, round, i32(b, loc, 1));
  return {MemDescIndexOp::create(b, loc, barTy, bars, stage), parity};
}

/// local_alloc -> a store into stage `stage` of a two-stage buffer made
/// before the loop.
void stageOperand(OpBuilder &b, scf::ForOp loop, LocalAllocOp alloc,
                  Value stage) {
  MemDescType tile = alloc.getType();
  SmallVector<int64_t> shape{kStages};
  shape.append(tile.getShape().begin(), tile.getShape().end());
  b.setInsertionPoint(loop);
  auto buffer = SmemAllocOp::create(
      b, alloc.getLoc(),
      MemDescType::get(b.getContext(), shape, tile.getElementType(),
                       tile.getEncoding()),
      /*immutable=*/nullptr);
  buffer->setAttr(TXLGPUDialect::kLoopStagingAttr, b.getUnitAttr());
  b.setInsertionPoint(alloc);
  auto view = MemDescIndexOp::create(b, alloc.getLoc(), tile, buffer, stage);
  SmemStoreOp::create(b, alloc.getLoc(), view, alloc.getSrc());
  alloc.getResult().replaceAllUsesWith(view.getResult());
  alloc.erase();
}

void pipeline(LoopDot c) {
  scf::ForOp loop = c.loop;
  Location loc = c.mma.getLoc();
  Value oldBar = c.mma.getBarriers()[0];
  // The ring of commit barriers, one arrival (the commit) per phase.
  auto func = loop->getParentOfType<func::FuncOp>();
  OpBuilder entry(&func.front(), func.front().begin());
  Attribute barEnc = cast<MemDescType>(oldBar.getType()).getEncoding();
  Value bars = MBarAllocOp::create(
      entry, loc,
      MemDescType::get(entry.getContext(), {kStages}, entry.getI64Type(),
                       barEnc),
      1);

  // The accumulator goes to TMEM once, before the loop.
  OpBuilder b(loop);
  c.store->moveBefore(loop);
  c.store.getValueMutable().assign(loop.getInitArgs()[c.iterArg]);

  // In the loop: trip = (iv - lb) / step; wait until the MMAs of trip - 2
  // (the stage's last readers) are done, then restage the operands.
  Block *body = loop.getBody();
  b.setInsertionPointToStart(body);
  Value trip = toI32(
      b, loc,
      arith::DivSIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, loop.getInductionVar(),
                                loop.getLowerBound()),
          loop.getStep()));
  Value stage = arith::RemSIOp::create(b, loc, trip, i32(b, loc, kStages));
  auto [bar, parity] = stageOf(b, loc, bars, trip);
  // Parity ^ 1: a stage's first wait passes at once (no MMA read it yet).
  MBarWaitOp::create(b, loc, bar,
                     arith::XOrIOp::create(b, loc, parity, i32(b, loc, 1)));
  stageOperand(b, loop, c.mma.getA().getDefiningOp<LocalAllocOp>(), stage);
  stageOperand(b, loop, c.mma.getB().getDefiningOp<LocalAllocOp>(), stage);
  c.mma->removeAttr(kSyncCommitAttr);
  c.mma.getBarriersMutable().assign(bar);

  // The loop no longer carries the accumulator in registers.
  Operation *yield = body->getTerminator();
  yield->setOperand(c.iterArg, body->getArgument(c.iterArg + 1));
  c.load->moveAfter(loop);
  b.setInsertionPoint(c.load);
  // Every thread waits for the last commit (if the loop ran at all).
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value trips = toI32(
      b, loc,
      arith::CeilDivSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb),
                                 loop.getStep()));
  Value last = arith::SubIOp::create(b, loc, trips, i32(b, loc, 1));
  Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, last,
                                    i32(b, loc, 0));
  auto ifRan = scf::IfOp::create(b, loc, TypeRange{}, ran, false);
  b.setInsertionPoint(ifRan.thenBlock()->getTerminator());
  auto [lastBar, lastParity] = stageOf(b, loc, bars, last);
  MBarWaitOp::create(b, loc, lastBar, lastParity);
  loop.getResult(c.iterArg).replaceAllUsesWith(c.load.getResult());

  // The synchronous form's barrier is unused now.
  if (oldBar.use_empty())
    if (auto index = oldBar.getDefiningOp<MemDescIndexOp>()) {
      Value alloc = index.getSrc();
      index.erase();
      if (alloc.use_empty())
        alloc.getDefiningOp()->erase();
    }
}

struct PipelineTCGen05DotsPass
    : public txlgpu::impl::PipelineTCGen05DotsBase<PipelineTCGen05DotsPass> {
  void runOnOperation() override {
    SmallVector<LoopDot> work;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<TCGen05MMAOp> mmas(loop.getBody()->getOps<TCGen05MMAOp>());
      if (mmas.size() != 1)
        return;
      if (auto c = match(loop, mmas.front()))
        work.push_back(*c);
      else
        TXL_DEBUG(llvm::dbgs()
                  << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                  << ": not pipelined: the MMA does not accumulate a loop-"
                     "carried value from operands staged in the loop\n");
    });
    for (LoopDot &c : work)
      pipeline(c);
  }
};

} // namespace
