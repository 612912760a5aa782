//===- MapElementwise.cpp - tl.map_elementwise ----------------------------===//
//
// Triton builds a region that runs the scalar function once per element (or
// per `pack` elements), so the function may branch on an element's value.
// txl calls the function once on the whole broadcast tensors instead: an
// `if` on the elements' values runs both branches (which must have no
// effects) and selects each name, and each returned value, element-wise
// (execElementwiseIf); loops must not depend on the elements (their
// condition must be a scalar). With pack > 1, every slot of a
// pack gets the same tensors and the first slot's results are kept (the
// others are dead code): Triton leaves unspecified which elements share a
// pack, so a function may only combine a slot's own inputs.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace txl::irgen {

/// `a` where `cond`, else `b`, leaf by leaf (tuples); equal compile-time
/// parts stay.
static Val selectLeaves(Gen &g, const TValue &cond, const Val &a, const Val &b,
                        SourceLoc loc) {
  if (sameStructure(a, b, true))
    return a;
  if (a.isTuple() && b.isTuple() && a.elts.size() == b.elts.size()) {
    Val r = a;
    for (size_t k = 0; k < a.elts.size(); ++k)
      r.elts[k] = selectLeaves(g, cond, a.elts[k], b.elts[k], loc);
    return r;
  }
  auto isValue = [](const Val &v) {
    return v.isNumber() || (v.isTensor() && v.t.isReg());
  };
  if (!isValue(a) || !isValue(b))
    g.fail(loc, "an 'if' on tensor elements in tl.map_elementwise's function "
                "gives " +
                    describe(a) + " on one path and " + describe(b) +
                    " on the other");
  return g.where(Val::tensor(cond), a, b, loc);
}

/// Fails if an op after `from` in the current block has effects: both
/// branches of an element-wise `if` run on every element.
static void requireNoEffects(Gen &g, Block *block, Operation *from,
                             SourceLoc loc) {
  auto it = from ? std::next(Block::iterator(from)) : block->begin();
  for (; it != g.b.getInsertionPoint(); ++it)
    if (!isMemoryEffectFree(&*it))
      g.fail(loc, "an 'if' on tensor elements in tl.map_elementwise's "
                  "function runs both branches (on every element), so they "
                  "cannot have effects such as stores");
}

void Gen::execElementwiseIf(const IfStmt &s, const TValue &cond) {
  Block *block = b.getInsertionBlock();
  Operation *start =
      b.getInsertionPoint() == block->begin() ? nullptr
                                              : &*std::prev(b.getInsertionPoint());
  Scope before = *locals;
  Val result;
  if (containsReturn(s)) {
    if (loopDepth > 0 ||
        llvm::any_of(cursors, [](const BlockCursor &c) { return !c.stmts; }))
      fail(s.loc, "a runtime 'if' holding a 'return' cannot be inside a loop "
                  "or a 'with' block (Triton's rule for `return` in `for` and "
                  "`while`); keep the return outside it");
    std::vector<BlockCursor> rest = cursors;
    Val tv = runBranchToReturn(s.body, rest, before);
    bool thenExplicit = explicitReturn;
    Val ev = runBranchToReturn(s.orelse, rest, before);
    bool elseExplicit = explicitReturn;
    cursors = rest;
    *locals = before;
    returned = true;
    explicitReturn = thenExplicit || elseExplicit;
    // A path that fell off the end is undefined there: the other decides.
    if (tv.isNone() && !thenExplicit)
      returnValue = ev;
    else if (ev.isNone() && !elseExplicit)
      returnValue = tv;
    else
      returnValue = selectLeaves(*this, cond, tv, ev, s.loc);
  } else {
    execBlock(s.body);
    Scope thenScope = *locals;
    *locals = before;
    execBlock(s.orelse);
    Scope elseScope = *locals;
    *locals = before;
    for (auto &[name, tv] : thenScope) {
      auto it = elseScope.find(name);
      if (it != elseScope.end())
        (*locals)[name] = selectLeaves(*this, cond, tv, it->second, s.loc);
    }
  }
  requireNoEffects(*this, block, start, s.loc);
}

namespace handlers {

Val mapElementwise(Gen &g, const std::string &name, CallArgs &args,
                   SourceLoc loc) {
  int64_t pack = 1;
  for (auto &kw : args.kw) {
    if (kw.first != "pack")
      g.fail(loc,
             name + "() got an unexpected keyword argument '" + kw.first + "'");
    pack = g.constInt(kw.second, "pack", loc);
  }
  if (pack < 1)
    g.fail(loc, name + ": pack must be >= 1, got " + std::to_string(pack));
  if (args.pos.empty() || args.pos[0].kind != Val::Kind::Function)
    g.fail(loc, name + ": scalar_fn must be a @jit function");
  if (args.pos.size() < 2)
    g.fail(loc, name + " must have at least 1 input tensor");
  std::vector<TValue> xs;
  for (size_t i = 1; i < args.pos.size(); ++i)
    xs.push_back(g.toTensor(args.pos[i], loc));
  for (size_t i = 1; i < xs.size(); ++i)
    std::tie(xs[0], xs[i]) = g.broadcastPair(xs[0], xs[i], loc);
  for (size_t i = 1; i < xs.size(); ++i)
    std::tie(xs[i], xs[0]) = g.broadcastPair(xs[i], xs[0], loc);
  std::vector<Val> fnArgs;
  for (const TValue &x : xs)
    for (int64_t j = 0; j < pack; ++j)
      fnArgs.push_back(Val::tensor(x));
  ++g.elementwiseDepth;
  Val out = g.callWithValues(args.pos[0], fnArgs, loc);
  --g.elementwiseDepth;
  bool single = !out.isTuple();
  std::vector<Val> all = single ? std::vector<Val>{out} : out.elts;
  if (all.empty() || all.size() % size_t(pack) != 0)
    g.fail(loc, name + ": scalar_fn must return a multiple of pack=" +
                    std::to_string(pack) + " values, got " +
                    std::to_string(all.size()));
  std::vector<Val> results;
  for (size_t k = 0; k < all.size(); k += size_t(pack)) {
    TValue r = g.toTensor(all[k], loc);
    if (r.shape != xs[0].shape)
      r = g.broadcastTo(r, xs[0].shape, loc);
    results.push_back(Val::tensor(r));
  }
  // Triton's rule: a tuple unless the function returned one tensor (with
  // pack > 1 that is a tuple of one).
  return single ? results.front() : Val::tuple(results);
}

} // namespace handlers

} // namespace txl::irgen
