//===- Stmts.cpp - Statements, control flow and helper inlining -----------===//
//
// Scoping follows Python functions (one scope per inlined call) with
// Triton's rules for runtime control flow: a name assigned in a runtime `if`
// survives it when both paths define it (it becomes an scf.if result); a name
// assigned in a runtime loop and defined before it is loop-carried; names
// first defined inside a loop body do not survive the loop.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include "llvm/Support/Casting.h"

using llvm::dyn_cast;
using llvm::isa;
using namespace mlir;

namespace txl::irgen {

//===----------------------------------------------------------------------===//
// Assignment analysis
//===----------------------------------------------------------------------===//

static void targetNames(const Expr &t, std::map<std::string, SourceLoc> &out) {
  if (auto *n = dyn_cast<NameExpr>(&t)) {
    out.emplace(n->id, n->loc);
  } else if (auto *tu = dyn_cast<TupleExpr>(&t)) {
    for (const ExprPtr &e : tu->elts)
      targetNames(*e, out);
  } else if (auto *li = dyn_cast<ListExpr>(&t)) {
    for (const ExprPtr &e : li->elts)
      targetNames(*e, out);
  } else if (auto *st = dyn_cast<StarredExpr>(&t)) {
    targetNames(*st->value, out);
  }
}

/// Names assigned anywhere in `stmts` (nested blocks included), with the
/// location of their first assignment.
static void assignedNames(const StmtList &stmts,
                          std::map<std::string, SourceLoc> &out) {
  for (const StmtPtr &s : stmts) {
    switch (s->getKind()) {
    case Stmt::Kind::Assign:
      for (const ExprPtr &t : llvm::cast<AssignStmt>(*s).targets)
        targetNames(*t, out);
      break;
    case Stmt::Kind::AugAssign:
      targetNames(*llvm::cast<AugAssignStmt>(*s).target, out);
      break;
    case Stmt::Kind::AnnAssign:
      if (llvm::cast<AnnAssignStmt>(*s).value)
        targetNames(*llvm::cast<AnnAssignStmt>(*s).target, out);
      break;
    case Stmt::Kind::If:
      assignedNames(llvm::cast<IfStmt>(*s).body, out);
      assignedNames(llvm::cast<IfStmt>(*s).orelse, out);
      break;
    case Stmt::Kind::For:
      targetNames(*llvm::cast<ForStmt>(*s).target, out);
      assignedNames(llvm::cast<ForStmt>(*s).body, out);
      break;
    case Stmt::Kind::While:
      assignedNames(llvm::cast<WhileStmt>(*s).body, out);
      break;
    case Stmt::Kind::With:
      assignedNames(llvm::cast<WithStmt>(*s).body, out);
      break;
    default:
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Runtime leaves of values (for yields and loop-carried values)
//===----------------------------------------------------------------------===//

void collectLeaves(const Val &v, std::vector<TValue> &out) {
  if (v.isTensor()) {
    out.push_back(v.t);
    return;
  }
  for (const Val &e : v.elts)
    collectLeaves(e, out);
}

/// `templ` with its runtime leaves replaced by `values[idx...]`.
Val rebuild(const Val &templ, ValueRange values, size_t &idx) {
  if (templ.isTensor()) {
    Val v = templ;
    v.t.value = values[idx++];
    return v;
  }
  Val v = templ;
  for (Val &e : v.elts)
    e = rebuild(e, values, idx);
  return v;
}

/// Turns compile-time numbers (also inside tuples) into runtime scalars, so
/// they can be carried or yielded.
Val promoteNumbers(Gen &g, const Val &v, SourceLoc loc) {
  if (v.isNumber())
    return Val::tensor(g.toTensor(v, loc));
  if (v.isTuple()) {
    Val r = v;
    // A block pointer's block shape and order (the last two fields) stay
    // compile-time constants.
    size_t n = isBlockPointer(v) ? 4 : r.elts.size();
    for (size_t k = 0; k < n; ++k)
      r.elts[k] = promoteNumbers(g, r.elts[k], loc);
    return r;
  }
  return v;
}

std::string describe(const Val &v) {
  if (v.isTensor())
    return v.t.typeStr();
  if (v.isTuple()) {
    std::string s = "(";
    for (size_t k = 0; k < v.elts.size(); ++k)
      s += (k ? ", " : "") + describe(v.elts[k]);
    return s + ")";
  }
  return v.kindName() + " " + v.repr();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Gen::execBlock(const StmtList &stmts) { execBlockFrom(stmts, 0); }

void Gen::execBlockFrom(const StmtList &stmts, size_t start) {
  cursors.push_back({&stmts, start});
  size_t frame = cursors.size() - 1;
  for (size_t k = start; k < stmts.size() && !returned; ++k) {
    cursors[frame].next = k + 1;
    countStatement(stmts[k]->loc);
    exec(*stmts[k]);
  }
  cursors.pop_back();
}

void Gen::countStatement(SourceLoc loc) {
  if (++statementsRun <= kMaxStatements)
    return;
  std::string limit = std::to_string(kMaxStatements) + " statements";
  if (expansions.empty())
    fail(loc, "the kernel is too large: more than " + limit);
  const Expansion &outer = expansions.front();
  fail(outer.loc, std::string(outer.what) + " expands the kernel past " +
                      limit +
                      " (unrolled loop bodies and inlined helper "
                      "bodies count each time)");
}

void Gen::assign(const Expr &target, const Val &value, SourceLoc loc) {
  if (auto *n = dyn_cast<NameExpr>(&target)) {
    (*locals)[n->id] = value;
    return;
  }
  const ExprList *elts = nullptr;
  if (auto *tu = dyn_cast<TupleExpr>(&target))
    elts = &tu->elts;
  else if (auto *li = dyn_cast<ListExpr>(&target))
    elts = &li->elts;
  if (elts) {
    if (!value.isTuple())
      fail(target.loc, "cannot unpack a " + value.kindName() +
                           " into several names");
    for (const ExprPtr &e : *elts)
      if (isa<StarredExpr>(e.get()))
        fail(e->loc, "starred assignment targets are not supported");
    if (value.elts.size() != elts->size())
      fail(target.loc, "cannot unpack " + std::to_string(value.elts.size()) +
                           " values into " + std::to_string(elts->size()) +
                           " names");
    for (size_t k = 0; k < elts->size(); ++k)
      assign(*(*elts)[k], value.elts[k], loc);
    return;
  }
  if (isa<SubscriptExpr>(&target))
    fail(target.loc, "assignment to a subscript is not supported; tensors "
                     "are immutable values");
  if (isa<AttributeExpr>(&target))
    fail(target.loc, "assignment to an attribute is not supported");
  fail(target.loc, "unsupported assignment target");
}

void Gen::exec(const Stmt &s) {
  NestingGuard ng(*this, s.loc);
  LocGuard lg(*this, s.loc);
  switch (s.getKind()) {
  case Stmt::Kind::Assign: {
    const auto &a = llvm::cast<AssignStmt>(s);
    Val v = eval(*a.value);
    for (const ExprPtr &t : a.targets)
      assign(*t, v, s.loc);
    return;
  }
  case Stmt::Kind::AugAssign: {
    const auto &a = llvm::cast<AugAssignStmt>(s);
    if (!isa<NameExpr>(a.target.get()))
      fail(a.target->loc, "augmented assignment to a subscript or an "
                          "attribute is not supported");
    Val old = eval(*a.target);
    if (a.op == BinOpKind::Add)
      if (std::optional<Val> fused = accumulatingDot(old, *a.value, a.opLoc)) {
        assign(*a.target, *fused, s.loc);
        return;
      }
    Val rhs = eval(*a.value);
    LocGuard g2(*this, a.opLoc);
    assign(*a.target, binary(a.op, old, rhs, a.opLoc), s.loc);
    return;
  }
  case Stmt::Kind::AnnAssign: {
    const auto &a = llvm::cast<AnnAssignStmt>(s);
    if (!a.value)
      return;
    Val v = eval(*a.value);
    if (isConstexprAnnotation(a.annotation.get()) && !v.isConstant())
      fail(a.value->loc, "value annotated tl.constexpr is not a "
                         "compile-time constant");
    assign(*a.target, v, s.loc);
    return;
  }
  case Stmt::Kind::If:
    return execIf(llvm::cast<IfStmt>(s));
  case Stmt::Kind::For:
    if (llvm::cast<ForStmt>(s).isAsync)
      failNotInKernel(s.loc, constructName(s));
    return execFor(llvm::cast<ForStmt>(s));
  case Stmt::Kind::While:
    return execWhile(llvm::cast<WhileStmt>(s));
  case Stmt::Kind::Break:
    fail(s.loc, "'break' is not supported in kernels");
  case Stmt::Kind::Continue:
    fail(s.loc, "'continue' is not supported in kernels");
  case Stmt::Kind::Return: {
    const auto &r = llvm::cast<ReturnStmt>(s);
    if (loopDepth > 0)
      fail(s.loc, "'return' inside a runtime loop is not supported");
    returnValue = r.value ? eval(*r.value) : Val::none();
    returned = true;
    explicitReturn = true;
    return;
  }
  case Stmt::Kind::Pass:
    return;
  case Stmt::Kind::ExprStmt: {
    const auto &e = llvm::cast<ExprStmt>(s);
    if (auto *c = dyn_cast<ConstantExpr>(e.value.get()))
      if (c->isString())
        return; // docstring
    (void)eval(*e.value);
    return;
  }
  case Stmt::Kind::Assert: {
    const auto &a = llvm::cast<AssertStmt>(s);
    Val t = eval(*a.test);
    if (!t.isConstant())
      return; // runtime asserts are not checked (like Triton without debug)
    if (!truthy(t, a.test->loc)) {
      std::string msg = "assertion failed";
      if (a.msg) {
        Val m = eval(*a.msg);
        msg += ": " + m.repr();
      }
      fail(s.loc, msg);
    }
    return;
  }
  case Stmt::Kind::With:
    if (llvm::cast<WithStmt>(s).isAsync)
      failNotInKernel(s.loc, constructName(s));
    execWith(llvm::cast<WithStmt>(s));
    return;
  case Stmt::Kind::Import:
  case Stmt::Kind::ImportFrom:
    fail(s.loc, "imports inside a kernel are not supported");
  case Stmt::Kind::Global:
    fail(s.loc, "'global'/'nonlocal' are not supported in kernels");
  case Stmt::Kind::FunctionDef:
    fail(s.loc, "nested functions are not supported in kernels");
  case Stmt::Kind::ClassDef:
  case Stmt::Kind::Try:
  case Stmt::Kind::Raise:
  case Stmt::Kind::Delete:
  case Stmt::Kind::Match:
  case Stmt::Kind::TypeAlias:
    failNotInKernel(s.loc, constructName(s));
  }
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

/// `selectable`: an `if`, which may select element-wise by a tensor
/// condition inside tl.map_elementwise's function.
static TValue runtimeCondition(Gen &g, const Val &test, SourceLoc loc,
                               const char *what, bool selectable = false) {
  TValue c = g.toTensor(test, loc);
  if (selectable && c.isTensor() && c.numel() != 1 && g.elementwiseDepth > 0)
    return g.toBool(c, loc); // execElementwiseIf selects by it
  // A one-element tensor is its element (Triton unsplats it, warning).
  if (c.isTensor() && c.numel() == 1)
    c = g.scalarOf(c, loc);
  if (c.isTensor())
    g.fail(loc, std::string("the condition of ") + what +
                    " must be a scalar, got " + c.typeStr());
  return g.toBool(c, loc);
}

void Gen::execIf(const IfStmt &s) {
  Val test = eval(*s.test);
  if (test.isConstant()) {
    execBlock(truthy(test, s.test->loc) ? s.body : s.orelse);
    return;
  }
  TValue cond =
      runtimeCondition(*this, test, s.test->loc, "an 'if'", /*selectable=*/true);
  if (cond.isTensor())
    return execElementwiseIf(s, cond);
  if (containsReturn(s))
    return execIfWithReturn(s, cond);
  Location loc = cur;
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond.value, true);
  Scope before = *locals;
  ++dynamicDepth;
  // Both branches of an `if` on a warpgroup-uniform condition
  // (txl.is_warpgroup(...), txl.warpgroup_id() == 0) run on whole
  // warpgroups; an is_warpgroup role also names the warpgroups it selects
  // (for the register budget of setmaxnreg roles, checkRegisterRoles).
  bool role = isWarpgroupUniform(cond.value);
  roleDepth += role;
  divergentDepth += !role;
  auto roleIt = rolePredicates.find(cond.value.getAsOpaquePointer());
  bool namedRole = roleIt != rolePredicates.end();
  std::vector<int64_t> outerGroups = roleGroups;
  std::vector<int64_t> outerWarps = roleWarps;
  int64_t outerIssuer = warpRoleIssuer;
  auto warpsIt = roleWarpIds.find(cond.value.getAsOpaquePointer());
  // is_warp roles (no warpgroups named) issue single-thread work from
  // their first warp.
  bool warpRole = warpsIt != roleWarpIds.end() && namedRole &&
                  roleIt->second.empty();
  if (namedRole)
    roleGroups = roleIt->second;
  if (warpsIt != roleWarpIds.end())
    roleWarps = warpsIt->second;
  if (warpRole && !roleWarps.empty())
    warpRoleIssuer = roleWarps.front();
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  execBlock(s.body);
  Scope thenScope = *locals;
  *locals = before;
  if (namedRole) { // the else branch runs on the other warpgroups
    std::vector<int64_t> others;
    for (int64_t group = 0;
         !roleIt->second.empty() && group < opts.numWarpgroups; ++group)
      if (!llvm::is_contained(roleIt->second, group))
        others.push_back(group);
    roleGroups = others;
  }
  if (warpsIt != roleWarpIds.end()) { // and on the other warps
    std::vector<int64_t> others;
    int64_t all = tensorWarps() + extraWarps;
    for (int64_t w = 0; w < all; ++w)
      if (!llvm::is_contained(warpsIt->second, w) &&
          (outerWarps.empty() || llvm::is_contained(outerWarps, w)))
        others.push_back(w);
    roleWarps = others;
    if (warpRole)
      warpRoleIssuer = others.empty() ? -1 : others.front();
  }
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  execBlock(s.orelse);
  Scope elseScope = *locals;
  roleGroups = outerGroups;
  roleWarps = outerWarps;
  warpRoleIssuer = outerIssuer;
  --dynamicDepth;
  roleDepth -= role;
  divergentDepth -= !role;

  // Merge: names both paths define and that changed somewhere.
  Scope merged = before;
  std::vector<std::string> yielded;
  std::vector<Val> thenVals, elseVals;
  for (auto &[name, tv] : thenScope) {
    auto it = elseScope.find(name);
    if (it == elseScope.end())
      continue;
    const Val &ev = it->second;
    if (sameStructure(tv, ev, true)) {
      merged[name] = tv;
      continue;
    }
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Val t2 = promoteNumbers(*this, tv, s.loc);
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    Val e2 = promoteNumbers(*this, ev, s.loc);
    if (!sameStructure(t2, e2, false))
      fail(s.loc, "Mismatched type for " + name + " between then block (" +
                      describe(t2) + ") and else block (" + describe(e2) +
                      ")");
    yielded.push_back(name);
    thenVals.push_back(t2);
    elseVals.push_back(e2);
  }
  // Names defined on one path only do not survive (unless defined before).
  *locals = merged;
  b.setInsertionPointAfter(ifOp);
  if (yielded.empty()) {
    if (ifOp.elseBlock()->getOperations().size() == 1)
      ifOp.getElseRegion().front().erase();
    return;
  }
  std::vector<TValue> thenLeaves, elseLeaves;
  for (const Val &v : thenVals)
    collectLeaves(v, thenLeaves);
  for (const Val &v : elseVals)
    collectLeaves(v, elseLeaves);
  SmallVector<Type> types;
  SmallVector<Value> tv, ev;
  for (const TValue &t : thenLeaves) {
    types.push_back(t.value.getType());
    tv.push_back(t.value);
  }
  for (const TValue &t : elseLeaves)
    ev.push_back(t.value);
  b.setInsertionPoint(ifOp);
  auto newIf = scf::IfOp::create(b, loc, types, cond.value, true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  for (auto [block, vals] :
       {std::make_pair(newIf.thenBlock(), &tv),
        std::make_pair(newIf.elseBlock(), &ev)}) {
    Operation *term = block->getTerminator();
    b.setInsertionPoint(term);
    scf::YieldOp::create(b, loc, *vals);
    term->erase();
  }
  ifOp.erase();
  size_t idx = 0;
  for (size_t k = 0; k < yielded.size(); ++k)
    (*locals)[yielded[k]] = rebuild(thenVals[k], newIf.getResults(), idx);
  b.setInsertionPointAfter(newIf);
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

namespace {
/// The loop-carried state of one runtime loop.
struct Carried {
  std::vector<std::string> names;
  std::vector<Val> templates; ///< values at loop entry (numbers promoted)
  std::vector<SourceLoc> assignLocs;
  std::vector<std::pair<std::string, Val>> frozen; ///< constants to check
  SmallVector<Value> inits;
  SmallVector<Type> types;
};
} // namespace

static Carried findCarried(Gen &g, const StmtList &body,
                           const std::string &exclude, SourceLoc loc) {
  std::map<std::string, SourceLoc> assigned;
  assignedNames(body, assigned);
  Carried c;
  for (auto &[name, aloc] : assigned) {
    if (name == exclude)
      continue;
    auto it = g.locals->find(name);
    if (it == g.locals->end())
      continue;
    const Val &v = it->second;
    bool hasLeaves = !v.isConstant();
    bool promotable = v.isNumber() || (v.isTuple() && !v.elts.empty());
    if (!hasLeaves && !promotable) {
      c.frozen.emplace_back(name, v);
      continue;
    }
    Val t = promoteNumbers(g, v, loc);
    c.names.push_back(name);
    c.templates.push_back(t);
    c.assignLocs.push_back(aloc);
    std::vector<TValue> leaves;
    collectLeaves(t, leaves);
    for (const TValue &l : leaves) {
      c.inits.push_back(l.value);
      c.types.push_back(l.value.getType());
    }
  }
  return c;
}

/// Binds carried names to `args` in the current scope.
static void bindCarried(Gen &g, const Carried &c, ValueRange args) {
  size_t idx = 0;
  for (size_t k = 0; k < c.names.size(); ++k)
    (*g.locals)[c.names[k]] = rebuild(c.templates[k], args, idx);
}

/// Reads carried names back after the body and checks their types.
static SmallVector<Value> yieldCarried(Gen &g, const Carried &c,
                                       SourceLoc loopLoc) {
  SmallVector<Value> out;
  for (size_t k = 0; k < c.names.size(); ++k) {
    Val now = (*g.locals)[c.names[k]];
    if (!sameStructure(now, c.templates[k], false)) {
      Val promoted = now;
      if (c.templates[k].isTensor() && now.isNumber())
        promoted = Val::tensor(g.cast(g.toTensor(now, c.assignLocs[k]),
                                      c.templates[k].t.dtype, c.assignLocs[k]));
      if (!sameStructure(promoted, c.templates[k], false))
        g.fail(c.assignLocs[k], "loop-carried variable '" + c.names[k] +
                                    "' changes type from " +
                                    describe(c.templates[k]) + " to " +
                                    describe(now) + " in the loop");
      now = promoted;
    }
    std::vector<TValue> leaves;
    collectLeaves(now, leaves);
    for (const TValue &l : leaves)
      out.push_back(l.value);
  }
  for (auto &[name, v] : c.frozen) {
    auto it = g.locals->find(name);
    if (it == g.locals->end() || !sameStructure(it->second, v, true))
      g.fail(loopLoc, "cannot reassign the compile-time value '" + name +
                 "' inside a runtime loop");
  }
  return out;
}

static Val unrollBody(Gen &g, const ForStmt &s, const Val &item) {
  g.assign(*s.target, item, s.loc);
  g.execBlock(s.body);
  return Val();
}

void Gen::execFor(const ForStmt &s) {
  if (!s.orelse.empty())
    fail(s.elseLoc, "'for ... else' is not supported");
  auto *callExpr = dyn_cast<CallExpr>(s.iter.get());
  Val fnVal = callExpr ? eval(*callExpr->func) : eval(*s.iter);
  if (!callExpr || fnVal.kind != Val::Kind::Builtin ||
      (fnVal.s != "range" && fnVal.s != "tl.range" &&
       fnVal.s != "tl.static_range")) {
    Val seq = callExpr ? eval(*s.iter) : fnVal;
    if (!seq.isTuple())
      fail(s.iter->loc, "for loops must iterate over range(), tl.range(), "
                        "tl.static_range() or a compile-time tuple");
    ExpansionGuard unrolling(*this, s.loc,
                             "this loop over a compile-time tuple");
    OpaqueBlockGuard opaque(*this);
    for (const Val &item : seq.elts) {
      if (returned)
        break;
      unrollBody(*this, s, item);
    }
    return;
  }
  CallArgs args;
  for (const ExprPtr &a : callExpr->args) {
    args.pos.push_back(eval(*a));
    args.posLocs.push_back(a->loc);
  }
  for (const Keyword &k : callExpr->keywords)
    args.kw.emplace_back(k.name, eval(*k.value));
  args.loc = callExpr->loc;
  SourceLoc rloc = callExpr->loc;
  std::vector<std::optional<Val>> p =
      bind(args,
           {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor",
            "disallow_acc_multi_buffer", "flatten", "warp_specialize",
            "disable_licm"},
           1, fnVal.s == "range" ? "range" : fnVal.s, rloc);
  if (fnVal.s == "range")
    for (size_t k = 3; k < p.size(); ++k)
      if (p[k])
        fail(rloc, "range() takes no keyword arguments; use tl.range");
  Val lo = p[1] ? *p[0] : Val::integer(0);
  Val hi = p[1] ? *p[1] : *p[0];
  Val step = p[2] ? *p[2] : Val::integer(1);

  if (fnVal.s == "tl.static_range") {
    if (!lo.isIntLike() || !hi.isIntLike() || !step.isIntLike())
      fail(rloc, "tl.static_range bounds must be compile-time integers");
    int64_t a = lo.asInt(), z = hi.asInt(), st = step.asInt();
    if (st == 0)
      fail(rloc, "tl.static_range step must not be zero");
    int64_t count = 0;
    ExpansionGuard unrolling(*this, s.loc,
                             "this tl.static_range loop (unrolled)");
    OpaqueBlockGuard opaque(*this);
    for (int64_t i = a; (st > 0 ? i < z : i > z); i += st) {
      if (++count > 4096)
        fail(rloc, "tl.static_range unrolls more than 4096 iterations");
      if (returned)
        break;
      unrollBody(*this, s, Val::integer(i));
    }
    return;
  }

  // Runtime loop: scf.for over the promoted integer type of the bounds.
  for (const Val *v : {&lo, &hi, &step})
    if (!(v->isIntLike() ||
          (v->isTensor() && !v->t.isTensor() && v->t.dtype.isInt() &&
           !v->t.dtype.isBool())))
      fail(rloc, "range bounds must be integer scalars, got " + describe(*v));
  DType ivType = DType::I32;
  for (const Val *v : {&lo, &hi, &step}) {
    DType d = v->isTensor() ? v->t.dtype : numberDType(*v);
    if (d.bitWidth() == 64)
      ivType = DType::I64;
  }
  bool negStep = step.isIntLike() && step.asInt() < 0;
  if (step.isIntLike() && step.asInt() == 0)
    fail(rloc, "range() step must not be zero");
  LocGuard lg(*this, s.loc);
  TValue vlo = cast(toTensor(lo, rloc), ivType, rloc);
  TValue vhi = cast(toTensor(hi, rloc), ivType, rloc);
  TValue vstep = cast(toTensor(step, rloc), ivType, rloc);
  TValue origLo = vlo;
  if (negStep) {
    // Iterate k in [0, ceil((lo - hi) / -step)) and map i = lo + k * step.
    Val span = binary(BinOpKind::Sub, Val::tensor(vlo), Val::tensor(vhi), rloc);
    Val neg = Val::integer(-step.asInt());
    Val trips = binary(
        BinOpKind::FloorDiv,
        binary(BinOpKind::Add, span, Val::integer(-step.asInt() - 1), rloc),
        neg, rloc);
    trips = minMax(true, trips, Val::integer(0), rloc);
    vhi = cast(trips.t, ivType, rloc);
    vlo = constant(ivType, Val::integer(0));
    vstep = constant(ivType, Val::integer(1));
  }
  std::string targetName;
  if (auto *n = dyn_cast<NameExpr>(s.target.get()))
    targetName = n->id;
  else
    fail(s.target->loc, "a runtime loop needs a single name as its target");

  Scope before = *locals;
  Carried carried = findCarried(*this, s.body, targetName, s.loc);
  auto forOp = scf::ForOp::create(b, cur, vlo.value, vhi.value, vstep.value,
                                  carried.inits);
  auto setAttr = [&](const std::optional<Val> &v, const char *attr) {
    if (!v || v->isNone())
      return;
    if (v->kind == Val::Kind::Bool)
      forOp->setAttr(attr, b.getBoolAttr(v->b));
    else if (v->isInt())
      forOp->setAttr(attr, b.getI32IntegerAttr(int32_t(v->i)));
    else
      fail(rloc, std::string(attr) + " must be a compile-time constant");
  };
  setAttr(p[3], "txl.num_stages");
  setAttr(p[4], "txl.loop_unroll_factor");
  setAttr(p[5], "txl.disallow_acc_multi_buffer");
  setAttr(p[6], "txl.flatten");
  setAttr(p[7], "txl.warp_specialize");
  setAttr(p[8], "txl.disable_licm");

  Block *body = forOp.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    b.setInsertionPoint(&body->back());
  else
    b.setInsertionPointToEnd(body);
  bindCarried(*this, carried, body->getArguments().drop_front());
  TValue iv{forOp.getInductionVar(), ivType, {}};
  if (negStep) {
    Val i = binary(BinOpKind::Add, Val::tensor(origLo),
                   binary(BinOpKind::Mul, Val::tensor(iv), step, rloc), rloc);
    iv = cast(i.t, ivType, rloc);
  }
  (*locals)[targetName] = Val::tensor(iv);
  ++dynamicDepth;
  ++loopDepth;
  execBlock(s.body);
  --loopDepth;
  --dynamicDepth;
  SmallVector<Value> results = yieldCarried(*this, carried, s.loc);
  if (!carried.inits.empty())
    scf::YieldOp::create(b, cur, results);
  *locals = before;
  b.setInsertionPointAfter(forOp);
  bindCarried(*this, carried, forOp.getResults());
}

void Gen::execWhile(const WhileStmt &s) {
  if (!s.orelse.empty())
    fail(s.elseLoc, "'while ... else' is not supported");
  Scope before = *locals;
  Carried carried = findCarried(*this, s.body, "", s.loc);
  Location loc = cur;
  auto whileOp = scf::WhileOp::create(b, loc, carried.types, carried.inits);
  SmallVector<Location> locs(carried.types.size(), loc);
  Block *beforeBlock =
      b.createBlock(&whileOp.getBefore(), {}, carried.types, locs);
  bindCarried(*this, carried, beforeBlock->getArguments());
  ++dynamicDepth;
  ++loopDepth;
  Val test = eval(*s.test);
  TValue cond = runtimeCondition(*this, test, s.test->loc, "a 'while'");
  scf::ConditionOp::create(b, loc, cond.value, beforeBlock->getArguments());
  Block *afterBlock =
      b.createBlock(&whileOp.getAfter(), {}, carried.types, locs);
  *locals = before;
  bindCarried(*this, carried, afterBlock->getArguments());
  execBlock(s.body);
  --loopDepth;
  --dynamicDepth;
  SmallVector<Value> results = yieldCarried(*this, carried, s.loc);
  scf::YieldOp::create(b, loc, results);
  *locals = before;
  b.setInsertionPointAfter(whileOp);
  bindCarried(*this, carried, whileOp.getResults());
}

//===----------------------------------------------------------------------===//
// Helper calls (inlined)
//===----------------------------------------------------------------------===//

/// Whether `fn` is decorated `@jit(noinline=True)`.
static bool isNoinline(const FunctionDefStmt &fn) {
  for (const ExprPtr &d : fn.decorators)
    if (auto *call = dyn_cast<CallExpr>(d.get()))
      if (const Keyword *k = call->findKeyword("noinline"))
        if (auto *c = dyn_cast<ConstantExpr>(k->value.get()))
          if (c->isBool() && c->boolValue)
            return true;
  return false;
}

Val Gen::callFunction(const Val &callee, const CallArgs &args,
                      SourceLoc callLoc) {
  const FunctionDefStmt &fn = *callee.fn;
  // The callee runs among its own module's names (and reports errors in
  // its own file); the notes of its errors point at this call.
  const SourceFile *callerFile = curFile;
  auto callerFail = [&](const std::string &msg) {
    DiagnosticEngine(*callerFile).fail(callLoc, msg);
  };
  ModuleScope inModule(*this, moduleOfFunction(callee));
  for (const Frame &f : callStack)
    if (f.fn == &fn)
      callerFail("recursive call to '" + fn.name + "'");
  if (int(callStack.size()) >= kMaxCallDepth)
    callerFail("call chain too deep: more than " +
               std::to_string(kMaxCallDepth) + " nested calls");
  if (!isJitFunction(fn))
    callerFail("'" + fn.name + "' is not a @jit function");
  checkKernelSignature(fn);
  if (args.pos.size() > fn.args.size())
    callerFail(fn.name + "() takes " + std::to_string(fn.args.size()) +
               " positional arguments but " + std::to_string(args.pos.size()) +
               " were given");
  std::vector<std::optional<Val>> bound(fn.args.size());
  for (size_t k = 0; k < args.pos.size(); ++k)
    bound[k] = args.pos[k];
  for (auto &[name, v] : args.kw) {
    size_t k = 0;
    while (k < fn.args.size() && fn.args[k].name != name)
      ++k;
    if (k == fn.args.size())
      callerFail(fn.name + "() got an unexpected keyword argument '" + name +
                 "'");
    if (bound[k])
      callerFail(fn.name + "() got multiple values for argument '" + name +
                 "'");
    bound[k] = v;
  }
  // Triton calls a noinline function, and passes it scalars only; txl
  // inlines every call but keeps Triton's rule, so that code accepted here
  // compiles there too.
  if (isNoinline(fn))
    for (size_t k = 0; k < bound.size(); ++k)
      if (bound[k] && bound[k]->isTensor() && bound[k]->t.isTensor())
        callerFail("Function " + fn.name +
                   " is marked noinline, but was called with non-scalar "
                   "argument " +
                   fn.args[k].name + ":" + bound[k]->t.typeStr());
  Scope scope;
  {
    Scope *saved = locals;
    locals = nullptr; // defaults see globals only
    for (size_t k = 0; k < fn.args.size(); ++k) {
      const Arg &a = fn.args[k];
      if (!bound[k]) {
        if (!a.defaultValue) {
          locals = saved;
          callerFail(fn.name + "() missing required argument '" + a.name + "'");
        }
        bound[k] = eval(*a.defaultValue);
      }
      // As in Triton, a helper's `tl.constexpr` annotation does not make
      // its argument compile-time: a tensor passed there stays a tensor
      // (kernels such as FlashAttention's pass offsets that way).
      scope[a.name] = *bound[k];
    }
    locals = saved;
  }
  Scope *savedLocals = locals;
  int savedDepth = dynamicDepth, savedLoopDepth = loopDepth;
  bool savedReturned = returned, savedExplicit = explicitReturn;
  Val savedReturn = returnValue;
  // The callee's blocks are its own: an early return in it continues
  // with the rest of the callee only.
  std::vector<BlockCursor> savedCursors = std::move(cursors);
  cursors.clear();
  locals = &scope;
  dynamicDepth = 0;
  loopDepth = 0;
  returned = false;
  explicitReturn = false;
  returnValue = Val::none();
  callStack.push_back({&fn, callLoc});
  try {
    ExpansionGuard inlining(*this, callLoc,
                            "this call (helpers are inlined at every call)");
    execBlock(fn.body);
  } catch (CompileError &e) {
    callStack.pop_back();
    locals = savedLocals;
    // Add a note per call level, at most a few, so deep chains stay short.
    std::string formatted = e.getFormatted();
    if (callStack.size() < 4)
      formatted += formatDiagnostic(
          *callerFile,
          Diagnostic{Severity::Note, callLoc, "in call to '" + fn.name + "'"});
    throw CompileError(e.getLoc(), e.getMessage(), formatted);
  }
  callStack.pop_back();
  Val result = returnValue;
  locals = savedLocals;
  cursors = std::move(savedCursors);
  dynamicDepth = savedDepth;
  loopDepth = savedLoopDepth;
  returned = savedReturned;
  explicitReturn = savedExplicit;
  returnValue = savedReturn;
  return result;
}

Val Gen::callWithValues(const Val &fn, std::vector<Val> args, SourceLoc loc) {
  CallArgs ca;
  ca.pos = std::move(args);
  ca.posLocs.assign(ca.pos.size(), loc);
  ca.loc = loc;
  return call(fn, ca, loc);
}

/// `acc += tl.dot(a, b)` with a B operand in shared memory: an asynchronous
/// wgmma must accumulate into `acc` itself, since its result cannot be read
/// before a txl.dot_wait (the addition cannot follow it, as it does for
/// register dots, where CombineDotAccumulate fuses it later). The TXL
/// project writes its pipelines this way. Returns the value to assign, or
/// nullopt before evaluating anything but the callee when the statement is
/// not `fp32 tensor += tl.dot(x, y)`.
std::optional<Val> Gen::accumulatingDot(const Val &acc, const Expr &value,
                                        SourceLoc opLoc) {
  auto *call = dyn_cast<CallExpr>(&value);
  if (!call || call->args.size() != 2 || !call->keywords.empty() ||
      !acc.isTensor() || !acc.t.isReg() || acc.t.dtype.kind != DType::F32)
    return std::nullopt;
  for (const ExprPtr &arg : call->args)
    if (isa<StarredExpr>(arg.get()))
      return std::nullopt;
  Val callee = eval(*call->func);
  const BuiltinInfo *entry =
      callee.kind == Val::Kind::Builtin ? findBuiltin(callee.s) : nullptr;
  if (!entry || llvm::StringRef(entry->name) != "tl.dot")
    return std::nullopt;
  CallArgs args;
  args.loc = call->func->loc;
  for (const ExprPtr &arg : call->args) {
    args.pos.push_back(eval(*arg));
    args.posLocs.push_back(arg->loc);
  }
  LocGuard lg(*this, call->loc);
  const Val &b = args.pos[1];
  if (b.isTensor() && b.t.space == TValue::Space::Smem) {
    args.pos.push_back(acc);
    args.posLocs.push_back(opLoc);
    return callBuiltin(callee.s, args, call->loc);
  }
  Val product = callBuiltin(callee.s, args, call->loc);
  LocGuard addLoc(*this, opLoc);
  return binary(BinOpKind::Add, acc, product, opLoc);
}

} // namespace txl::irgen
