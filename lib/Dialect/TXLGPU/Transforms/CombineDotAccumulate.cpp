//===- CombineDotAccumulate.cpp - acc + dot(a, b) -> dot(a, b, acc) -------===//
//
// `acc += tl.dot(a, b)` reaches the IR as a dot with a zero accumulator and
// an addf. Tensor-core MMAs accumulate in place, so the addition is folded
// into the accumulator operand. The result differs from the unfused form
// only by where the fp32 rounding of the sum happens (Triton fuses the
// same way).
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_COMBINEDOTACCUMULATE
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
namespace ttx = mlir::txl;

namespace {

/// A dot whose accumulator is a zero constant and whose only user is `add`.
ttx::DotOp zeroAccDot(Value v, arith::AddFOp add) {
  auto dot = v.getDefiningOp<ttx::DotOp>();
  if (!dot || !dot->hasOneUse() || dot->getBlock() != add->getBlock())
    return {};
  if (!matchPattern(dot.getC(), m_AnyZeroFloat()))
    return {};
  return dot;
}

struct CombineDotAccumulatePass
    : public txlgpu::impl::CombineDotAccumulateBase<CombineDotAccumulatePass> {
  void runOnOperation() override {
    SmallVector<arith::AddFOp> adds;
    getOperation().walk([&](arith::AddFOp add) { adds.push_back(add); });
    for (arith::AddFOp add : adds) {
      Value acc = add.getLhs();
      ttx::DotOp dot = zeroAccDot(add.getRhs(), add);
      if (!dot) {
        acc = add.getRhs();
        dot = zeroAccDot(add.getLhs(), add);
      }
      if (!dot || acc.getType() != dot.getType())
        continue;
      // The accumulator must exist where the dot runs.
      if (Operation *def = acc.getDefiningOp())
        if (def->getBlock() == dot->getBlock() && !def->isBeforeInBlock(dot))
          continue;
      dot.getCMutable().assign(acc);
      add.getResult().replaceAllUsesWith(dot.getResult());
      add.erase();
    }
  }
};

} // namespace
