//===- LoopPipelining.cpp - shared pieces of the loop pipelining passes ---===//
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"

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
