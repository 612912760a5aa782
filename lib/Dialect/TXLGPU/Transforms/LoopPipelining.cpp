//===- LoopPipelining.cpp - shared pieces of the loop pipelining passes ---===//
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::txlgpu;

std::optional<AccumulatingDot>
mlir::txlgpu::matchAccumulatingDot(scf::ForOp loop, WarpGroupDotOp dot) {
  if (dot->getParentOp() != loop.getOperation() || !dot->hasOneUse())
    return std::nullopt;
  auto wait = dyn_cast<WarpGroupDotWaitOp>(*dot->getUsers().begin());
  if (!wait || wait.getPendings() != 0 || wait.getInputs().size() != 1 ||
      !wait->getResult(0).hasOneUse())
    return std::nullopt;
  auto acc = dyn_cast<BlockArgument>(dot.getC());
  auto yield = dyn_cast<scf::YieldOp>(*wait->getResult(0).getUsers().begin());
  if (!acc || acc.getOwner() != loop.getBody() || !yield || !acc.hasOneUse())
    return std::nullopt;
  unsigned index = wait->getResult(0).getUses().begin()->getOperandNumber();
  if (loop.getRegionIterArgs()[index] != acc)
    return std::nullopt;
  return AccumulatingDot{dot, wait, index};
}

void mlir::txlgpu::drainAfterLoop(scf::ForOp loop, AccumulatingDot match) {
  Value result = loop.getResult(match.resultIndex);
  OpBuilder b(loop->getContext());
  b.setInsertionPointAfter(loop);
  auto drain = WarpGroupDotWaitOp::create(
      b, match.dot.getLoc(), TypeRange(result.getType()), ValueRange(result),
      b.getI32IntegerAttr(0));
  result.replaceAllUsesExcept(drain.getResult(0), drain);

  OpOperand &init = loop.getInitArgsMutable()[match.resultIndex];
  b.setInsertionPoint(loop);
  auto pinned = WarpGroupDotWaitOp::create(
      b, match.dot.getLoc(), TypeRange(init.get().getType()),
      ValueRange(init.get()), b.getI32IntegerAttr(0));
  init.set(pinned.getResult(0));
}

FailureOr<SmallVector<Operation *>>
mlir::txlgpu::recomputableSlice(ValueRange roots, Block *body) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!v)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || slice.contains(def))
      continue; // a block argument or a value from outside the loop
    if (!isPure(def) || def->getNumRegions() != 0)
      return failure();
    slice.insert(def);
    work.append(def->operand_begin(), def->operand_end());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

namespace {

/// The accumulator a loop's tcgen05 MMA writes.
Value accumulatorOf(Operation *mma) {
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(mma))
    return scaled.getD();
  return cast<TCGen05MMAOp>(mma).getD();
}

/// The operand holding the one barrier a synchronous MMA commits to.
OpOperand *commitBarrier(Operation *mma) {
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(mma))
    return &scaled.getBarrierMutable();
  auto plain = cast<TCGen05MMAOp>(mma);
  if (plain.getBarriers().size() != 1)
    return nullptr;
  return &plain.getBarriersMutable()[0];
}

/// Whether the MMA always accumulates (useD is true) and always issues.
bool alwaysAccumulates(Operation *mma) {
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(mma))
    return matchPattern(scaled.getUseD(), m_One());
  auto plain = cast<TCGen05MMAOp>(mma);
  return matchPattern(plain.getUseD(), m_One()) && !plain.getPred();
}

} // namespace

SmallVector<Value> mlir::txlgpu::stagedTiles(Operation *mma) {
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(mma))
    return {scaled.getA(), scaled.getB(), scaled.getAScaleTile(),
            scaled.getBScaleTile()};
  auto plain = cast<TCGen05MMAOp>(mma);
  return {plain.getA(), plain.getB()};
}

std::optional<TCGen05LoopDot>
mlir::txlgpu::matchTCGen05LoopDot(scf::ForOp loop, Operation *mma) {
  Block *body = loop.getBody();
  if (!isa<TCGen05MMAOp, TCGen05MMAScaledOp>(mma))
    return std::nullopt;
  Value d = accumulatorOf(mma);
  if (mma->getBlock() != body || !mma->hasAttr(kSyncCommitAttr) ||
      !commitBarrier(mma) || !loop.isDefinedOutsideOfLoop(d) ||
      !alwaysAccumulates(mma))
    return std::nullopt;
  for (Value operand : stagedTiles(mma)) {
    auto alloc = operand.getDefiningOp<LocalAllocOp>();
    if (!alloc || alloc->getBlock() != body || !alloc->hasOneUse())
      return std::nullopt;
  }
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(mma))
    for (Value columns : {scaled.getAScale(), scaled.getBScale()}) {
      auto index = columns.getDefiningOp<MemDescIndexOp>();
      if (!index || !loop.isDefinedOutsideOfLoop(columns) ||
          !index.getSrc().getDefiningOp<TMemAllocOp>())
        return std::nullopt;
    }
  TCGen05LoopDot c{mma, {}, {}, 0};
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
  OpOperand &use = *c.load->use_begin();
  if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0 ||
      !arg.hasOneUse() || use.getOwner() != body->getTerminator() ||
      use.getOperandNumber() != arg.getArgNumber() - 1)
    return std::nullopt;
  c.iterArg = arg.getArgNumber() - 1;
  return c;
}

namespace {

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value toI32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  if (!v.getType().isInteger(32))
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  return v;
}

/// Barrier trip % stages of `ring` and the parity of trip's use of it.
std::pair<Value, Value> ringSlot(OpBuilder &b, Location loc, Value ring,
                                 Value trip, int64_t stages) {
  auto ringTy = cast<MemDescType>(ring.getType());
  Type barTy = MemDescType::get(b.getContext(), {1}, b.getI64Type(),
                                ringTy.getEncoding());
  Value stage = arith::RemSIOp::create(b, loc, trip, i32Const(b, loc, stages));
  Value use = arith::DivSIOp::create(b, loc, trip, i32Const(b, loc, stages));
  Value parity = arith::AndIOp::create(b, loc, use, i32Const(b, loc, 1));
  return {MemDescIndexOp::create(b, loc, barTy, ring, stage), parity};
}

} // namespace

void mlir::txlgpu::waitForStageReaders(OpBuilder &b, Location loc, Value ring,
                                       Value trip, int64_t stages) {
  // The commit of trip - stages completed use (trip / stages - 1) of the
  // stage's barrier: that parity is (trip / stages) & 1, flipped.
  auto [bar, parity] = ringSlot(b, loc, ring, trip, stages);
  MBarWaitOp::create(
      b, loc, bar, arith::XOrIOp::create(b, loc, parity, i32Const(b, loc, 1)));
}

std::pair<Value, Value> mlir::txlgpu::makeTCGen05LoopAsync(scf::ForOp loop,
                                                           TCGen05LoopDot c,
                                                           int64_t stages) {
  Location loc = c.mma->getLoc();
  OpOperand *barrier = commitBarrier(c.mma);
  Value oldBar = barrier->get();
  auto func = loop->getParentOfType<func::FuncOp>();
  OpBuilder entry(&func.front(), func.front().begin());
  Attribute barEnc = cast<MemDescType>(oldBar.getType()).getEncoding();
  Value ring =
      MBarAllocOp::create(entry, loc,
                          MemDescType::get(entry.getContext(), {stages},
                                           entry.getI64Type(), barEnc),
                          1);

  // The accumulator goes to TMEM once, before the loop.
  c.store->moveBefore(loop);
  c.store.getValueMutable().assign(loop.getInitArgs()[c.iterArg]);

  Block *body = loop.getBody();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  Value trip = toI32(b, loc,
                     arith::DivSIOp::create(
                         b, loc,
                         arith::SubIOp::create(b, loc, loop.getInductionVar(),
                                               loop.getLowerBound()),
                         loop.getStep()));
  b.setInsertionPoint(c.mma);
  c.mma->removeAttr(kSyncCommitAttr);
  barrier->set(ringSlot(b, loc, ring, trip, stages).first);

  // The loop no longer carries the accumulator in registers.
  body->getTerminator()->setOperand(c.iterArg,
                                    body->getArgument(c.iterArg + 1));
  c.load->moveAfter(loop);
  b.setInsertionPoint(c.load);
  // Every thread waits for the last commit (a thread's tcgen05 MMAs
  // complete in order), if the loop ran at all.
  // trips = (ub - lb + step - 1) / step (an scf.for's step is positive).
  Value extent = arith::SubIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc,
                            arith::SubIOp::create(b, loc, loop.getUpperBound(),
                                                  loop.getLowerBound()),
                            loop.getStep()),
      arith::ConstantOp::create(b, loc,
                                b.getIntegerAttr(loop.getStep().getType(), 1)));
  Value trips =
      toI32(b, loc, arith::DivSIOp::create(b, loc, extent, loop.getStep()));
  Value last = arith::SubIOp::create(b, loc, trips, i32Const(b, loc, 1));
  Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, last,
                                    i32Const(b, loc, 0));
  auto ifRan = scf::IfOp::create(b, loc, TypeRange{}, ran, false);
  b.setInsertionPoint(ifRan.thenBlock()->getTerminator());
  auto [lastBar, lastParity] = ringSlot(b, loc, ring, last, stages);
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
  return {ring, trip};
}

void mlir::txlgpu::stageOperand(OpBuilder &b, scf::ForOp loop,
                                LocalAllocOp alloc, Value stage,
                                int64_t stages) {
  MemDescType tile = alloc.getType();
  SmallVector<int64_t> shape{stages};
  shape.append(tile.getShape().begin(), tile.getShape().end());
  b.setInsertionPoint(loop);
  auto buffer = SmemAllocOp::create(b, alloc.getLoc(),
                                    MemDescType::get(b.getContext(), shape,
                                                     tile.getElementType(),
                                                     tile.getEncoding()),
                                    /*immutable=*/nullptr);
  buffer->setAttr(TXLGPUDialect::kLoopStagingAttr, b.getUnitAttr());
  b.setInsertionPoint(alloc);
  auto view = MemDescIndexOp::create(b, alloc.getLoc(), tile, buffer, stage);
  SmemStoreOp::create(b, alloc.getLoc(), view, alloc.getSrc());
  alloc.getResult().replaceAllUsesWith(view.getResult());
  alloc.erase();
}
