//===- EarlyReturn.cpp - `return` inside a runtime `if` -------------------===//
//
// Triton accepts `if cond: ...; return x` with a runtime condition outside
// loops, building unstructured control flow. The builder keeps scf: each
// branch of such an `if` runs its own statements and then, unless it
// returned, the rest of the function (the statements left in every
// enclosing block, see Gen::cursors). The function is then finished, and
// its result is the scf.if's result. The rest of the function is built
// once per branch that reaches it (bounded by kMaxStatements).
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/Casting.h"

using llvm::cast;
using namespace mlir;

namespace txl::irgen {

static bool blockContainsReturn(const StmtList &stmts) {
  for (const StmtPtr &s : stmts) {
    switch (s->getKind()) {
    case Stmt::Kind::Return:
      return true;
    case Stmt::Kind::If:
      if (Gen::containsReturn(cast<IfStmt>(*s)))
        return true;
      break;
    case Stmt::Kind::For:
      if (blockContainsReturn(cast<ForStmt>(*s).body))
        return true;
      break;
    case Stmt::Kind::While:
      if (blockContainsReturn(cast<WhileStmt>(*s).body))
        return true;
      break;
    case Stmt::Kind::With:
      if (blockContainsReturn(cast<WithStmt>(*s).body))
        return true;
      break;
    default:
      break;
    }
  }
  return false;
}

bool Gen::containsReturn(const IfStmt &s) {
  return blockContainsReturn(s.body) || blockContainsReturn(s.orelse);
}

namespace {
/// How one branch of the `if` ended: what the function returned on it.
struct BranchResult {
  Val value;
  bool explicitReturn;
};
} // namespace

Val Gen::runBranchToReturn(const StmtList &branch,
                           const std::vector<BlockCursor> &rest,
                           const Scope &before) {
  *locals = before;
  cursors = rest;
  returned = false;
  explicitReturn = false;
  returnValue = Val::none();
  execBlock(branch);
  while (!returned && !cursors.empty()) {
    BlockCursor c = cursors.back();
    cursors.pop_back();
    execBlockFrom(*c.stmts, c.next);
  }
  return returnValue;
}

/// The value a path that fell off the function's end yields where the
/// other path returned `like`: zeros (Triton yields poison, an undefined
/// value, which zeros refine). Nullopt when `like` has leaves that are not
/// numbers in registers.
static std::optional<Val> undefinedLike(Gen &g, const Val &like) {
  if (like.isTensor()) {
    const TValue &t = like.t;
    if (!t.isReg() || t.dtype.isPtr())
      return std::nullopt;
    return Val::tensor(g.constant(t.dtype, Val::integer(0), t.shape));
  }
  if (!like.isTuple())
    return like;
  Val r = like;
  for (Val &e : r.elts) {
    std::optional<Val> u = undefinedLike(g, e);
    if (!u)
      return std::nullopt;
    e = *u;
  }
  return r;
}

void Gen::execIfWithReturn(const IfStmt &s, const TValue &cond) {
  if (loopDepth > 0 ||
      llvm::any_of(cursors, [](const BlockCursor &c) { return !c.stmts; }))
    fail(s.loc, "a runtime 'if' holding a 'return' cannot be inside a loop "
                "or a 'with' block (Triton's rule for `return` in `for` and "
                "`while`); keep the return outside it");
  Location loc = cur;
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond.value, true);
  Scope before = *locals;
  std::vector<BlockCursor> rest = cursors;
  bool role = isWarpgroupUniform(cond.value);
  roleDepth += role;
  divergentDepth += !role;
  ++dynamicDepth;
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  BranchResult thenRes{runBranchToReturn(s.body, rest, before),
                       explicitReturn};
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  BranchResult elseRes{runBranchToReturn(s.orelse, rest, before),
                       explicitReturn};
  --dynamicDepth;
  roleDepth -= role;
  divergentDepth -= !role;
  cursors = rest;
  *locals = before;
  returned = true;
  explicitReturn = thenRes.explicitReturn || elseRes.explicitReturn;
  b.setInsertionPointAfter(ifOp);

  Val tv = thenRes.value, ev = elseRes.value;
  if (sameStructure(tv, ev, true)) { // None on both paths, or one constant
    returnValue = tv;
    return;
  }
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  Val t2 = promoteNumbers(*this, tv, s.loc);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  Val e2 = promoteNumbers(*this, ev, s.loc);
  // A path that fell off the end takes the other path's type.
  if (!elseRes.explicitReturn && e2.isNone() && !t2.isNone())
    if (std::optional<Val> u = undefinedLike(*this, t2))
      e2 = *u;
  if (!thenRes.explicitReturn && t2.isNone() && !e2.isNone()) {
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    if (std::optional<Val> u = undefinedLike(*this, e2))
      t2 = *u;
  }
  if (!sameStructure(t2, e2, false))
    fail(s.loc, "Return type mismatch: the function returns " + describe(t2) +
                    " when this condition holds but " + describe(e2) +
                    " when it does not");
  std::vector<TValue> thenLeaves, elseLeaves;
  collectLeaves(t2, thenLeaves);
  collectLeaves(e2, elseLeaves);
  SmallVector<Type> types;
  SmallVector<Value> thenValues, elseValues;
  for (const TValue &t : thenLeaves) {
    types.push_back(t.value.getType());
    thenValues.push_back(t.value);
  }
  for (const TValue &t : elseLeaves)
    elseValues.push_back(t.value);
  b.setInsertionPoint(ifOp);
  auto newIf = scf::IfOp::create(b, loc, types, cond.value, true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  for (auto [block, values] :
       {std::make_pair(newIf.thenBlock(), &thenValues),
        std::make_pair(newIf.elseBlock(), &elseValues)}) {
    Operation *term = block->getTerminator();
    b.setInsertionPoint(term);
    scf::YieldOp::create(b, loc, *values);
    term->erase();
  }
  ifOp.erase();
  size_t idx = 0;
  returnValue = rebuild(t2, newIf.getResults(), idx);
  b.setInsertionPointAfter(newIf);
}

} // namespace txl::irgen
