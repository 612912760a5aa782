//===- IfExp.cpp - `x if cond else y` on a runtime scalar condition -------===//
//
// As in Triton, the condition picks which side runs: each side is built in
// its own branch of an scf.if (`tl.store(a) if c else tl.store(b)` stores
// once), and the two results meet in its result. Sides of different number
// types promote as tl.where's operands do; pointers must match exactly.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace txl::irgen {

/// The common shape of `a` and `b` under broadcasting.
static std::vector<int64_t> broadcastShape(Gen &g, std::vector<int64_t> a,
                                           std::vector<int64_t> b,
                                           SourceLoc loc) {
  std::vector<int64_t> oa = a, ob = b;
  while (a.size() < b.size())
    a.insert(a.begin(), 1);
  while (b.size() < a.size())
    b.insert(b.begin(), 1);
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k] == b[k] || b[k] == 1)
      continue;
    if (a[k] != 1)
      g.fail(loc, "incompatible shapes " + shapeStr(oa) + " and " +
                      shapeStr(ob) + " in a conditional expression");
    a[k] = b[k];
  }
  return a;
}

Val Gen::conditionalExpr(const TValue &cond, const IfExpExpr &e) {
  Location loc = locOf(e.loc);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond.value, true);
  ++dynamicDepth;
  ++divergentDepth;
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  Val x = eval(*e.body);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  Val y = eval(*e.orelse);
  --divergentDepth;
  --dynamicDepth;
  b.setInsertionPointAfter(ifOp);
  auto isHandle = [](const Val &v) { return v.isTensor() && !v.t.isReg(); };
  if (isHandle(x) || isHandle(y)) {
    // A choice between shared buffers or mbarriers is a select of handles
    // (chooseBuffer): naming one has no effect, so both sides are built
    // again before it, and the branches are dropped.
    ifOp.erase();
    Val bx = eval(*e.body);
    Val by = eval(*e.orelse);
    LocGuard lg(*this, e.loc);
    return chooseBuffer(Val::tensor(cond), bx, by, e.loc);
  }
  if (x.isNone() && y.isNone())
    return Val::none();
  if (sameStructure(x, y, true))
    return x;
  auto isValue = [](const Val &v) {
    return v.isNumber() || (v.isTensor() && v.t.isReg());
  };
  auto typeOf = [&](const Val &v) {
    return v.isTensor() ? v.t.typeStr() : v.kindName();
  };
  if (!isValue(x) || !isValue(y))
    fail(e.loc, "Ternary expression with dynamic condition has inconsistent "
                "types " +
                    typeOf(x) + " and " + typeOf(y));
  DType tx = x.isTensor() ? x.t.dtype : numberDType(x);
  DType ty = y.isTensor() ? y.t.dtype : numberDType(y);
  DType to = tx;
  if (tx != ty) {
    // Pointers must match exactly (Triton's rule); numbers promote as
    // tl.where's operands do.
    if (tx.isPtr() || ty.isPtr())
      fail(e.loc, "Ternary expression with dynamic condition has "
                  "inconsistent types " +
                      typeOf(x) + " and " + typeOf(y));
    to = computationType(tx, x.isNumber(), ty, y.isNumber(), false, e.loc,
                         "a conditional expression");
  }
  std::vector<int64_t> shape =
      broadcastShape(*this, x.isTensor() ? x.t.shape : std::vector<int64_t>{},
                     y.isTensor() ? y.t.shape : std::vector<int64_t>{}, e.loc);
  auto finish = [&](Block *block, const Val &v) {
    b.setInsertionPoint(block->getTerminator());
    TValue t = v.isNumber() ? constant(to, v) : cast(v.t, to, e.loc);
    return shape.empty() ? t : broadcastTo(t, shape, e.loc);
  };
  TValue vx = finish(ifOp.thenBlock(), x);
  TValue vy = finish(ifOp.elseBlock(), y);
  b.setInsertionPoint(ifOp);
  auto newIf = scf::IfOp::create(b, loc, TypeRange{vx.value.getType()},
                                 cond.value, true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  for (auto [block, v] : {std::make_pair(newIf.thenBlock(), vx.value),
                          std::make_pair(newIf.elseBlock(), vy.value)}) {
    Operation *term = block->getTerminator();
    b.setInsertionPoint(term);
    scf::YieldOp::create(b, loc, ValueRange{v});
    term->erase();
  }
  ifOp.erase();
  b.setInsertionPointAfter(newIf);
  TValue r = vx;
  r.value = newIf.getResult(0);
  return Val::tensor(r);
}

} // namespace txl::irgen
