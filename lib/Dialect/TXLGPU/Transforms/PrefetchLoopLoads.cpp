//===- PrefetchLoopLoads.cpp - load the next iteration's dot operands -----===//
//
// A plain Triton matmul loop loads an A and a B tile from global memory and
// multiplies them. Without help every iteration waits for its own loads.
// This pass rotates those loads by one iteration: the loop carries the tiles
// it will multiply next, and the end of each iteration issues the loads of
// the following one, with addresses recomputed from the values the
// iteration yields (the usual `ptrs += BLOCK_K * stride` update) and the
// next induction value. One load before the loop feeds the first iteration.
// Loads are predicated on their iteration existing, so the rotated loop
// touches exactly the addresses the original did.
//
// Only loads that feed a dot, whose address and mask computation inside the
// body is pure and depends on nothing but the induction variable, the
// loop-carried values and values from outside, are rotated.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PREFETCHLOOPLOADS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-prefetch-loop-loads"

using namespace mlir;
namespace ttx = mlir::txl;

namespace {

/// Whether `load`'s value reaches a dot operand: directly, through one
/// element-type conversion, or (after AssignLayouts) through the layout
/// conversion or shared-memory staging that feeds a tensor-core dot.
bool feedsDot(ttx::LoadOp load) {
  SmallVector<std::pair<Value, int>> work{{load.getResult(), 0}};
  while (!work.empty()) {
    auto [value, depth] = work.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<ttx::DotOp, txlgpu::WarpGroupDotOp>(user))
        return true;
      bool passesOn =
          isa<txlgpu::LocalAllocOp, txlgpu::ConvertLayoutOp>(user) ||
          (isPure(user) && user->getNumRegions() == 0);
      if (depth < 2 && passesOn && user->getNumResults() == 1)
        work.push_back({user->getResult(0), depth + 1});
    }
  }
  return false;
}

/// The ops of `body` that `load`'s operands are computed by.
FailureOr<SmallVector<Operation *>> addressSlice(ttx::LoadOp load,
                                                 Block *body) {
  return txlgpu::recomputableSlice(load->getOperands(), body);
}

/// A copy of `load` (and of its address computation) for the iteration
/// whose induction value is `iv` and carried values `carried`, predicated
/// on `iv < ub`.
Value cloneLoad(OpBuilder &b, ttx::LoadOp load, ArrayRef<Operation *> slice,
                scf::ForOp loop, Value iv, ValueRange carried) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  map.map(loop.getRegionIterArgs(), carried);
  for (Operation *op : slice)
    b.clone(*op, map);
  Location loc = load.getLoc();
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                       loop.getUpperBound());
  Value ptr = map.lookupOrDefault(load.getPtr());
  Value mask = exists;
  if (auto type = dyn_cast<RankedTensorType>(ptr.getType()))
    mask = ttx::SplatOp::create(b, loc,
                                RankedTensorType::get(type.getShape(),
                                                      b.getI1Type(),
                                                      type.getEncoding()),
                                exists);
  if (load.getMask())
    mask = arith::AndIOp::create(b, loc, map.lookupOrDefault(load.getMask()),
                                 mask);
  auto copy = cast<ttx::LoadOp>(b.clone(*load, map));
  copy.getMaskMutable().assign(mask);
  return copy.getResult();
}

/// Rotates the prefetchable loads of `loop`; returns whether it changed.
bool prefetch(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<ttx::LoadOp> loads;
  SmallVector<SmallVector<Operation *>> slices;
  for (auto load : body->getOps<ttx::LoadOp>()) {
    if (!feedsDot(load))
      continue;
    FailureOr<SmallVector<Operation *>> slice = addressSlice(load, body);
    if (failed(slice))
      continue;
    loads.push_back(load);
    slices.push_back(*slice);
  }
  if (loads.empty())
    return false;

  // The first iteration's tiles, loaded before the loop.
  OpBuilder b(loop);
  SmallVector<Value> first;
  for (auto [load, slice] : llvm::zip(loads, slices))
    first.push_back(cloneLoad(b, load, slice, loop, loop.getLowerBound(),
                              loop.getInitArgs()));

  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  auto grown = loop.replaceWithAdditionalYields(
      rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location loc, ArrayRef<BlockArgument>) {
        // The old yield is the terminator the new values go before.
        Operation *yield = yb.getInsertionBlock()->getTerminator();
        auto newLoop = cast<scf::ForOp>(yield->getParentOp());
        Value next = arith::AddIOp::create(yb, loc, newLoop.getInductionVar(),
                                           newLoop.getStep());
        SmallVector<Value> ahead;
        for (auto [load, slice] : llvm::zip(loads, slices))
          ahead.push_back(
              cloneLoad(yb, load, slice, newLoop, next, yield->getOperands()));
        return ahead;
      });
  if (failed(grown))
    return false;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  ArrayRef<BlockArgument> carried =
      newLoop.getRegionIterArgs().take_back(loads.size());
  for (auto [load, arg] : llvm::zip(loads, carried)) {
    load.getResult().replaceAllUsesWith(arg);
    load.erase();
  }
  return true;
}

struct PrefetchLoopLoadsPass
    : public txlgpu::impl::PrefetchLoopLoadsBase<PrefetchLoopLoadsPass> {
  void runOnOperation() override {
    // Innermost loops only: an outer loop's loads are not per-iteration
    // operands of a dot in the same way.
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      bool innermost = true;
      loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
      if (innermost)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      Location loc = loop.getLoc();
      bool rotated = prefetch(loop);
      TXL_DEBUG(llvm::dbgs()
                << "[" TXL_DEBUG_TYPE "] loop at " << loc << ": "
                << (rotated ? "the next iteration's dot operand loads are "
                              "issued one iteration ahead"
                            : "left alone: no dot operand load with a pure "
                              "address computation")
                << "\n");
    }
  }
};

} // namespace
