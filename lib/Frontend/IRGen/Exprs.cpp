//===- Exprs.cpp - Expressions: folding, names, attributes, calls ---------===//
#include "Gen.h"
#include "Registry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/Casting.h"

#include <cmath>
#include <set>

using llvm::dyn_cast;
using llvm::isa;

namespace txl::irgen {

NestingGuard::NestingGuard(Gen &g, SourceLoc loc) : g(g) {
  if (++g.nesting > 3000)
    g.fail(loc, "expression nesting too deep");
}

static bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

Val Gen::eval(const Expr &e) {
  NestingGuard ng(*this, e.loc);
  LocGuard lg(*this, e.loc);
  switch (e.getKind()) {
  case Expr::Kind::Name:
    return evalName(llvm::cast<NameExpr>(e));
  case Expr::Kind::Constant: {
    const auto &c = llvm::cast<ConstantExpr>(e);
    switch (c.valueKind) {
    case ConstantExpr::ValueKind::Int: {
      if (c.isTooLarge)
        fail(e.loc, "integer literal '" + c.stringValue +
                        "' is too large (it does not fit in 64 bits)");
      Val v = Val::integer(c.intValue);
      v.b = c.isUnsigned64;
      return v;
    }
    case ConstantExpr::ValueKind::Float:
      return Val::floating(c.floatValue);
    case ConstantExpr::ValueKind::Bool:
      return Val::boolean(c.boolValue);
    case ConstantExpr::ValueKind::None:
      return Val::none();
    case ConstantExpr::ValueKind::String:
      return Val::str(c.stringValue);
    case ConstantExpr::ValueKind::Ellipsis: {
      Val v;
      v.kind = Val::Kind::Ellipsis;
      return v;
    }
    case ConstantExpr::ValueKind::Complex:
      failNotInKernel(e.loc, constructName(e));
    }
    fail(e.loc, "unsupported constant");
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    const ExprList &elts = isa<TupleExpr>(e) ? llvm::cast<TupleExpr>(e).elts
                                             : llvm::cast<ListExpr>(e).elts;
    std::vector<Val> vals;
    for (const ExprPtr &x : elts) {
      if (auto *st = dyn_cast<StarredExpr>(x.get())) {
        Val inner = eval(*st->value);
        if (!inner.isTuple())
          fail(st->loc, "can only unpack a tuple here");
        for (const Val &v : inner.elts)
          vals.push_back(v);
        continue;
      }
      vals.push_back(eval(*x));
    }
    return Val::tuple(std::move(vals));
  }
  case Expr::Kind::Attribute:
    return evalAttribute(llvm::cast<AttributeExpr>(e));
  case Expr::Kind::Subscript:
    return evalSubscript(llvm::cast<SubscriptExpr>(e));
  case Expr::Kind::Slice: {
    const auto &s = llvm::cast<SliceExpr>(e);
    Val v;
    v.kind = Val::Kind::Slice;
    v.elts.push_back(s.lower ? eval(*s.lower) : Val::none());
    v.elts.push_back(s.upper ? eval(*s.upper) : Val::none());
    v.elts.push_back(s.step ? eval(*s.step) : Val::none());
    return v;
  }
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(e));
  case Expr::Kind::UnaryOp: {
    const auto &u = llvm::cast<UnaryOpExpr>(e);
    Val a = eval(*u.operand);
    LocGuard g2(*this, u.loc);
    return unary(u.op, a, u.loc);
  }
  case Expr::Kind::BinOp: {
    const auto &bo = llvm::cast<BinOpExpr>(e);
    Val a = eval(*bo.lhs);
    Val c = eval(*bo.rhs);
    LocGuard g2(*this, bo.opLoc);
    return binary(bo.op, a, c, bo.opLoc);
  }
  case Expr::Kind::BoolOp:
    return evalBoolOp(llvm::cast<BoolOpExpr>(e));
  case Expr::Kind::Compare:
    return evalCompare(llvm::cast<CompareExpr>(e));
  case Expr::Kind::IfExp:
    return evalIfExp(llvm::cast<IfExpExpr>(e));
  case Expr::Kind::Dict:
    fail(e.loc, "dict displays are not supported in kernels");
  case Expr::Kind::Starred:
    fail(e.loc, "starred expression is not allowed here");
  case Expr::Kind::ListComp:
    fail(e.loc, "comprehensions are not supported in kernels");
  case Expr::Kind::JoinedStr:
    return evalJoinedStr(llvm::cast<JoinedStrExpr>(e));
  case Expr::Kind::Set:
  case Expr::Kind::Lambda:
  case Expr::Kind::NamedExpr:
  case Expr::Kind::HostOnly:
    failNotInKernel(e.loc, constructName(e));
  case Expr::Kind::FormattedValue: // only inside a JoinedStr
    break;
  }
  fail(e.loc, "unsupported expression");
}

/// An f-string of compile-time values (messages of tl.static_assert and
/// tl.static_print). As in Triton, a format spec is accepted and not
/// applied: `{x:>10}` formats as `{x}`.
Val Gen::evalJoinedStr(const JoinedStrExpr &e) {
  std::string text;
  for (const ExprPtr &part : e.values) {
    if (auto *c = dyn_cast<ConstantExpr>(part.get())) {
      text += c->stringValue;
      continue;
    }
    const auto &fv = llvm::cast<FormattedValueExpr>(*part);
    Val v = eval(*fv.value);
    if (!v.isConstant())
      fail(fv.loc, "an f-string in a kernel can only format compile-time "
                   "values, got a " +
                       v.kindName());
    bool quote = (fv.conversion == 'r' || fv.conversion == 'a') &&
                 v.kind == Val::Kind::Str;
    text += quote ? "'" + v.repr() + "'" : v.repr();
  }
  return Val::str(text);
}

//===----------------------------------------------------------------------===//
// Names and attributes
//===----------------------------------------------------------------------===//

Val Gen::lookup(const std::string &name, SourceLoc loc) {
  if (locals) {
    auto it = locals->find(name);
    if (it != locals->end())
      return it->second;
  }
  auto it = globals.find(name);
  if (it != globals.end()) {
    if (it->second.kind == Val::Kind::Poison)
      fail(loc, "global '" + name +
                    "' cannot be evaluated at compile time: " + it->second.s);
    return it->second;
  }
  // Python's builtins: the registry entries without a module prefix.
  if (name.find('.') == std::string::npos && findBuiltin(name))
    return Val::builtin(name);
  fail(loc, "name '" + name + "' is not defined");
}

Val Gen::evalName(const NameExpr &e) { return lookup(e.id, e.loc); }

Val Gen::evalAttribute(const AttributeExpr &e) {
  Val obj = eval(*e.value);
  LocGuard lg(*this, e.attrLoc);
  return getAttr(obj, e.attr, e.attrLoc);
}

/// The builtin `qualified` names (through the registry), as a callee;
/// nullopt when txl has no such function (yet).
static std::optional<Val> registered(const std::string &qualified) {
  const BuiltinInfo *e = findBuiltin(qualified);
  if (!e || !e->handler)
    return std::nullopt;
  return Val::builtin(e->name);
}

Val Gen::moduleAttr(const std::string &module, const std::string &attr,
                    SourceLoc loc) {
  if (llvm::StringRef(module).starts_with(kUserModulePrefix)) {
    auto it = imported.find(module.substr(strlen(kUserModulePrefix)));
    if (it != imported.end())
      return userModuleAttr(*it->second, attr, loc);
  }
  if (module == "triton") {
    if (attr == "language")
      return Val::module("tl");
    if (auto f = registered("triton." + attr))
      return *f;
    if (attr == "profiler")
      return Val::module("triton.profiler");
    fail(loc, "'triton." + attr + "' is not supported in kernels");
  }
  if (module == "triton.profiler" && attr == "language")
    return Val::module("pl");
  if (module == "pl") {
    if (attr == "scope" || attr == "enter_scope" || attr == "exit_scope")
      return Val::builtin("pl." + attr);
    fail(loc,
         "'triton.profiler.language." + attr + "' is not supported in kernels");
  }
  if (module == "txl") {
    if (attr == "language")
      return Val::module("tl");
    if (auto f = registered("txl." + attr))
      return *f;
    fail(loc, "'txl." + attr + "' is not supported");
  }
  if (module == "tl") {
    if (std::optional<DType> d = DType::fromName(attr))
      if (attr.find("int") != std::string::npos ||
          attr.find("float") != std::string::npos)
        return Val::dtypeVal(*d);
    if (attr == "math")
      return Val::module("tl.math");
    if (attr == "pi32_t") // Triton's name for pointer_type(int32)
      return Val::dtypeVal(DType::pointerTo(DType::I32));
    if (attr == "extra")
      return Val::module("tl.extra");
    if (attr == "language")
      return Val::module("tl");
    if (attr == "tensor" || attr == "dtype" || attr == "tensor_descriptor")
      return Val::builtin("tl." + attr);
    if (attr == "PropagateNan")
      return Val::module("tl.PropagateNan");
    if (auto f = registered("tl." + attr))
      return *f;
    fail(loc, "'tl." + attr + "' is not supported");
  }
  // tl.PropagateNan.ALL / .NONE, as the strings propagate_nan accepts.
  if (module == "tl.PropagateNan") {
    if (attr == "ALL" || attr == "NONE")
      return Val::str(attr);
    fail(loc, "'tl.PropagateNan." + attr + "' does not exist (ALL or NONE)");
  }
  if (module == "tl.math" || module == "libdevice") {
    if (auto f = registered(module + "." + attr))
      return *f;
    fail(loc, "'" + module + "." + attr + "' is not supported");
  }
  if (module == "tl.extra") {
    if (attr == "cuda")
      return Val::module("tl.extra.cuda");
    if (attr == "libdevice")
      return Val::module("libdevice");
    fail(loc, "'tl.extra." + attr + "' is not supported");
  }
  if (module == "tl.extra.cuda") {
    if (attr == "libdevice")
      return Val::module("libdevice");
    if (auto f = registered("tl.extra.cuda." + attr))
      return *f;
    fail(loc, "'tl.extra.cuda." + attr + "' is not supported");
  }
  if (module == "math") {
    if (attr == "pi")
      return Val::floating(M_PI);
    if (attr == "e")
      return Val::floating(M_E);
    if (attr == "tau")
      return Val::floating(2 * M_PI);
    if (attr == "inf")
      return Val::floating(INFINITY);
    if (attr == "nan")
      return Val::floating(NAN);
    if (auto f = registered("math." + attr))
      return *f;
    fail(loc, "'math." + attr + "' is not supported");
  }
  // A module found as a file (a namespace package's submodule: `import
  // pkg.ops.utils` with no pkg/__init__.py).
  if (ImportedModule *m = findModule(module + "." + attr))
    return Val::module(kUserModulePrefix + m->name);
  // Host-side modules (torch, numpy, os, ...): usable only as opaque values.
  return Val::module(module + "." + attr);
}

static Val dtypeAttr(const DType &d, const std::string &attr) {
  if (attr == "primitive_bitwidth" || attr == "int_bitwidth")
    return Val::integer(d.bitWidth());
  if (attr == "element_ty" && d.isPtr())
    return Val::dtypeVal(*d.pointee);
  if (attr == "name")
    return Val::str(d.str());
  return Val::method("dtype." + attr, Val::dtypeVal(d));
}

Val Gen::getAttr(const Val &obj, const std::string &attr, SourceLoc loc) {
  switch (obj.kind) {
  case Val::Kind::Module:
    return moduleAttr(obj.s, attr, loc);
  case Val::Kind::Tensor: {
    const TValue &t = obj.t;
    if (attr == "dtype")
      return Val::dtypeVal(t.dtype);
    if (attr == "shape") {
      std::vector<Val> dims;
      for (int64_t d : t.shape)
        dims.push_back(Val::integer(d));
      return Val::tuple(std::move(dims));
    }
    if (!t.isReg())
      return bufferAttr(obj, attr, loc);
    if (attr == "numel")
      return Val::integer(t.numel());
    if (attr == "ndim")
      return Val::integer(int64_t(t.shape.size()));
    if (attr == "T") {
      CallArgs args;
      args.pos.push_back(obj);
      args.posLocs.push_back(loc);
      args.loc = loc;
      return callBuiltin("tl.trans", args, loc);
    }
    if (attr == "type")
      return Val::dtypeVal(t.dtype);
    if (attr == "item")
      return Val::method("tensor.item", obj);
    // Triton's tensor methods: x.to(...), x.sum(...), ... (every tl
    // function but the few that take no tensor first).
    if (attr != "constexpr" && attr != "program_id")
      if (auto f = registered("tl." + attr))
        return Val::method(f->s, obj);
    fail(loc, "'tensor' object has no attribute '" + attr + "'");
  }
  case Val::Kind::DType:
    return dtypeAttr(obj.dtype, attr);
  case Val::Kind::Int:
  case Val::Kind::Float:
  case Val::Kind::Bool:
    if (attr == "value")
      return obj;
    // A number is the scalar tensor it becomes in an operation (Triton:
    // `value = 1; tl.full(..., dtype=value.dtype)` gives int32).
    if (attr == "dtype")
      return Val::dtypeVal(numberDType(obj));
    // So are its methods (Triton: `acc = 0; acc = acc.to(tl.int64)`).
    if (attr != "constexpr" && attr != "program_id")
      if (auto f = registered("tl." + attr))
        return Val::method(f->s, Val::tensor(toTensor(obj, loc)));
    break;
  default:
    break;
  }
  fail(loc, "'" + obj.kindName() + "' object has no attribute '" + attr + "'");
}

//===----------------------------------------------------------------------===//
// Subscripts
//===----------------------------------------------------------------------===//

static int64_t normIndex(const Gen &g, int64_t i, size_t n, SourceLoc loc) {
  int64_t k = i < 0 ? i + int64_t(n) : i;
  if (k < 0 || k >= int64_t(n))
    g.fail(loc, "tuple index " + std::to_string(i) + " out of range");
  return k;
}

Val Gen::evalSubscript(const SubscriptExpr &e) {
  Val obj = eval(*e.value);
  Val idx = eval(*e.index);
  LocGuard lg(*this, e.opLoc);
  if (obj.isTuple()) {
    if (idx.isIntLike())
      return obj.elts[normIndex(*this, idx.asInt(), obj.elts.size(), e.opLoc)];
    if (idx.kind == Val::Kind::Slice) {
      int64_t n = int64_t(obj.elts.size());
      auto part = [&](const Val &v, int64_t dflt) {
        if (v.isNone())
          return dflt;
        if (!v.isIntLike())
          fail(e.opLoc, "slice indices must be constant integers");
        int64_t k = v.asInt();
        if (k < 0)
          k += n;
        return std::max<int64_t>(0, std::min<int64_t>(k, n));
      };
      if (!idx.elts[2].isNone() && !(idx.elts[2].isIntLike() &&
                                     idx.elts[2].asInt() == 1))
        fail(e.opLoc, "tuple slices with a step are not supported");
      int64_t lo = part(idx.elts[0], 0), hi = part(idx.elts[1], n);
      std::vector<Val> out;
      for (int64_t k = lo; k < hi; ++k)
        out.push_back(obj.elts[k]);
      return Val::tuple(std::move(out));
    }
    fail(e.opLoc, "tuple indices must be constant integers, not " +
                      idx.kindName());
  }
  if (!obj.isTensor())
    fail(e.opLoc, "'" + obj.kindName() + "' object is not subscriptable");
  std::vector<Val> items = idx.isTuple() ? idx.elts : std::vector<Val>{idx};
  TValue t = obj.t;
  size_t dim = 0;
  for (const Val &it : items) {
    if (it.isNone()) {
      t = expandDims(t, int(dim), e.opLoc);
      ++dim;
      continue;
    }
    // ':' keeps a dimension; as in Triton, one past the last dimension is
    // accepted and changes nothing (`scalar_ptr[None, None, :]` is [1, 1]).
    if (it.kind == Val::Kind::Slice && it.elts[0].isNone() &&
        it.elts[1].isNone() && it.elts[2].isNone()) {
      ++dim;
      continue;
    }
    if (it.kind == Val::Kind::Ellipsis)
      fail(e.opLoc, "'...' is not supported in tensor indices");
    fail(e.opLoc, "unsupported tensor index: only ':' and None are allowed");
  }
  return Val::tensor(t);
}

//===----------------------------------------------------------------------===//
// Boolean operators, comparisons, ternaries
//===----------------------------------------------------------------------===//

bool Gen::truthy(const Val &v, SourceLoc loc) {
  switch (v.kind) {
  case Val::Kind::None:
    return false;
  case Val::Kind::Bool:
    return v.b;
  case Val::Kind::Int:
    return v.i != 0;
  case Val::Kind::Float:
    return v.f != 0.0;
  case Val::Kind::Str:
    return !v.s.empty();
  case Val::Kind::Tuple:
    return !v.elts.empty();
  case Val::Kind::Tensor:
    fail(loc, "internal error: truthiness of a runtime value");
  default:
    return true;
  }
}

Val Gen::evalBoolOp(const BoolOpExpr &e) {
  bool isAnd = e.op == BoolOpKind::And;
  Val acc = eval(*e.values[0]);
  for (size_t k = 1; k < e.values.size(); ++k) {
    if (acc.isConstant()) {
      // Python short circuit on compile-time values.
      if (truthy(acc, e.values[k - 1]->loc) != isAnd)
        return acc;
      acc = eval(*e.values[k]);
      continue;
    }
    Val next = eval(*e.values[k]);
    LocGuard lg(*this, e.values[k]->loc);
    acc = logical(isAnd, acc, next, e.values[k]->loc);
  }
  return acc;
}

Val Gen::evalCompare(const CompareExpr &e) {
  Val left = eval(*e.left);
  Val result;
  bool haveResult = false;
  for (size_t k = 0; k < e.ops.size(); ++k) {
    if (haveResult && result.isConstant() && !truthy(result, e.loc))
      return result; // chain short-circuits on a false constant
    Val right = eval(*e.comparators[k]);
    LocGuard lg(*this, e.opLocs[k]);
    Val r = compare(e.ops[k], left, right, e.opLocs[k]);
    if (!haveResult)
      result = r;
    else if (result.isConstant())
      result = r;
    else if (r.isConstant())
      result = truthy(r, e.loc) ? result : r;
    else
      result = logical(true, result, r, e.opLocs[k]);
    haveResult = true;
    left = right;
  }
  return result;
}

Val Gen::evalIfExp(const IfExpExpr &e) {
  Val test = eval(*e.test);
  if (test.isConstant())
    return truthy(test, e.test->loc) ? eval(*e.body) : eval(*e.orelse);
  // A scalar condition picks which side runs, as in Triton (a side with
  // effects, `tl.store(...) if c else tl.store(...)`, runs only when
  // chosen); a tensor condition selects element-wise between both sides.
  bool scalarCond = test.isTensor() && test.t.isReg() && !test.t.isTensor();
  if (scalarCond)
    return conditionalExpr(toBool(test.t, e.test->loc), e);
  Val x = eval(*e.body);
  Val y = eval(*e.orelse);
  LocGuard lg(*this, e.loc);
  if ((x.isTensor() && !x.t.isReg()) || (y.isTensor() && !y.t.isReg()))
    return chooseBuffer(test, x, y, e.loc);
  return where(test, x, y, e.loc);
}

/// `a if cond else b` over shared buffers or mbarriers (the TXL project's
/// per-warpgroup choice): a select of the two handles, which must be the
/// same kind, shape and dtype; cond must be a scalar.
Val Gen::chooseBuffer(const Val &cond, const Val &x, const Val &y,
                      SourceLoc loc) {
  using Space = TValue::Space;
  auto isHandle = [](const Val &v) {
    return v.isTensor() &&
           (v.t.space == Space::Smem || v.t.space == Space::SmemArray ||
            v.t.space == Space::Mbar || v.t.space == Space::MbarArray);
  };
  if (!isHandle(x) || !isHandle(y)) {
    const Val &odd = isHandle(x) ? y : x;
    fail(loc, "a conditional expression can choose between two shared "
              "buffers or two mbarriers, not a " +
                  (odd.isTensor() ? odd.t.typeStr() : odd.kindName()) +
                  " and a " + (isHandle(x) ? x.t.typeStr() : y.t.typeStr()));
  }
  if (!x.t.sameType(y.t) || x.t.value.getType() != y.t.value.getType())
    fail(loc, "a conditional expression chooses between shared buffers of "
              "different types: " +
                  x.t.typeStr() + " and " + y.t.typeStr());
  TValue c = toBool(toTensor(cond, loc), loc);
  if (!c.shape.empty())
    fail(loc, "choosing between shared buffers needs a scalar condition, "
              "got a " +
                  c.typeStr());
  TValue r = x.t;
  r.value =
      mlir::arith::SelectOp::create(b, cur, c.value, x.t.value, y.t.value);
  return Val::tensor(r);
}

//===----------------------------------------------------------------------===//
// Constant folding (Python semantics)
//===----------------------------------------------------------------------===//

static int64_t floorDiv(int64_t a, int64_t c) {
  int64_t q = a / c;
  if ((a % c != 0) && ((a < 0) != (c < 0)))
    --q;
  return q;
}

static int64_t floorMod(int64_t a, int64_t c) {
  int64_t r = a % c;
  if (r != 0 && ((r < 0) != (c < 0)))
    r += c;
  return r;
}

std::optional<Val> Gen::foldBinary(BinOpKind op, const Val &a, const Val &c,
                                   SourceLoc loc) {
  // Sequences: concatenation and repetition.
  if (op == BinOpKind::Add && a.isTuple() && c.isTuple()) {
    std::vector<Val> out = a.elts;
    out.insert(out.end(), c.elts.begin(), c.elts.end());
    return Val::tuple(std::move(out));
  }
  if (op == BinOpKind::Add && a.kind == Val::Kind::Str &&
      c.kind == Val::Kind::Str)
    return Val::str(a.s + c.s);
  if (op == BinOpKind::Mul && (a.isTuple() || c.isTuple()) &&
      (a.isIntLike() || c.isIntLike())) {
    const Val &seq = a.isTuple() ? a : c;
    int64_t n = a.isTuple() ? c.asInt() : a.asInt();
    if (n > 4096)
      fail(loc, "tuple repetition too large");
    std::vector<Val> out;
    for (int64_t k = 0; k < n; ++k)
      out.insert(out.end(), seq.elts.begin(), seq.elts.end());
    return Val::tuple(std::move(out));
  }
  if (!a.isNumber() || !c.isNumber())
    fail(loc, std::string("unsupported operand types for ") + spelling(op) +
                  ": '" + a.kindName() + "' and '" + c.kindName() + "'");
  bool bothInt = a.isIntLike() && c.isIntLike();
  if (bothInt) {
    int64_t x = a.asInt(), y = c.asInt(), r = 0;
    bool overflow = false;
    switch (op) {
    case BinOpKind::Add:
      overflow = __builtin_add_overflow(x, y, &r);
      break;
    case BinOpKind::Sub:
      overflow = __builtin_sub_overflow(x, y, &r);
      break;
    case BinOpKind::Mul:
      overflow = __builtin_mul_overflow(x, y, &r);
      break;
    case BinOpKind::Div:
      if (y == 0)
        fail(loc, "division by zero");
      return Val::floating(double(x) / double(y));
    case BinOpKind::FloorDiv:
      if (y == 0)
        fail(loc, "integer division by zero");
      if (x == INT64_MIN && y == -1)
        overflow = true;
      else
        r = floorDiv(x, y);
      break;
    case BinOpKind::Mod:
      if (y == 0)
        fail(loc, "integer modulo by zero");
      r = y == -1 ? 0 : floorMod(x, y);
      break;
    case BinOpKind::Pow: {
      if (y < 0)
        return Val::floating(std::pow(double(x), double(y)));
      r = 1;
      for (int64_t k = 0; k < y && !overflow; ++k)
        overflow = __builtin_mul_overflow(r, x, &r);
      break;
    }
    case BinOpKind::LShift:
      if (y < 0)
        fail(loc, "negative shift count");
      if (y >= 63 || (x != 0 && (x << y) >> y != x))
        overflow = x != 0;
      else
        r = x << y;
      break;
    case BinOpKind::RShift:
      if (y < 0)
        fail(loc, "negative shift count");
      r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
      break;
    case BinOpKind::BitAnd:
      r = x & y;
      break;
    case BinOpKind::BitOr:
      r = x | y;
      break;
    case BinOpKind::BitXor:
      r = x ^ y;
      break;
    case BinOpKind::MatMul:
      fail(loc, "unsupported operand types for @");
    }
    if (overflow)
      fail(loc, "integer overflow in constant expression");
    bool boolOp = op == BinOpKind::BitAnd || op == BinOpKind::BitOr ||
                  op == BinOpKind::BitXor;
    if (boolOp && a.kind == Val::Kind::Bool && c.kind == Val::Kind::Bool)
      return Val::boolean(r != 0);
    return Val::integer(r);
  }
  double x = a.asDouble(), y = c.asDouble();
  switch (op) {
  case BinOpKind::Add:
    return Val::floating(x + y);
  case BinOpKind::Sub:
    return Val::floating(x - y);
  case BinOpKind::Mul:
    return Val::floating(x * y);
  case BinOpKind::Div:
    if (y == 0)
      fail(loc, "float division by zero");
    return Val::floating(x / y);
  case BinOpKind::FloorDiv:
    if (y == 0)
      fail(loc, "float floor division by zero");
    return Val::floating(std::floor(x / y));
  case BinOpKind::Mod: {
    if (y == 0)
      fail(loc, "float modulo by zero");
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0)))
      r += y;
    return Val::floating(r);
  }
  case BinOpKind::Pow:
    return Val::floating(std::pow(x, y));
  default:
    fail(loc, std::string("unsupported operand types for ") + spelling(op) +
                  ": 'float'");
  }
}

std::optional<Val> Gen::foldCompare(CmpOpKind op, const Val &a, const Val &c,
                                    SourceLoc loc) {
  switch (op) {
  case CmpOpKind::Is:
  case CmpOpKind::IsNot: {
    bool same = (a.isNone() && c.isNone()) ||
                (a.kind == c.kind && !a.isNone() && sameStructure(a, c, true));
    return Val::boolean((op == CmpOpKind::Is) == same);
  }
  case CmpOpKind::In:
  case CmpOpKind::NotIn: {
    bool found = false;
    if (c.isTuple()) {
      for (const Val &v : c.elts)
        if (v.isConstant()) {
          std::optional<Val> eq = foldCompare(CmpOpKind::Eq, a, v, loc);
          if (eq && eq->b)
            found = true;
        }
    } else if (c.kind == Val::Kind::Str && a.kind == Val::Kind::Str) {
      found = c.s.find(a.s) != std::string::npos;
    } else {
      fail(loc, "'in' needs a tuple or a string on the right");
    }
    return Val::boolean((op == CmpOpKind::In) == found);
  }
  case CmpOpKind::Eq:
  case CmpOpKind::NotEq: {
    bool eq;
    if (a.isNumber() && c.isNumber())
      eq = (a.isIntLike() && c.isIntLike()) ? a.asInt() == c.asInt()
                                            : a.asDouble() == c.asDouble();
    else
      eq = a.kind == c.kind && sameStructure(a, c, true);
    return Val::boolean((op == CmpOpKind::Eq) == eq);
  }
  default:
    break;
  }
  int ord;
  if (a.isNumber() && c.isNumber()) {
    if (a.isIntLike() && c.isIntLike())
      ord = a.asInt() < c.asInt() ? -1 : (a.asInt() > c.asInt() ? 1 : 0);
    else {
      double x = a.asDouble(), y = c.asDouble();
      if (std::isnan(x) || std::isnan(y))
        return Val::boolean(false);
      ord = x < y ? -1 : (x > y ? 1 : 0);
    }
  } else if (a.kind == Val::Kind::Str && c.kind == Val::Kind::Str) {
    ord = a.s.compare(c.s);
  } else {
    fail(loc, std::string("'") + spelling(op) +
                  "' not supported between instances of '" + a.kindName() +
                  "' and '" + c.kindName() + "'");
  }
  switch (op) {
  case CmpOpKind::Lt:
    return Val::boolean(ord < 0);
  case CmpOpKind::Le:
    return Val::boolean(ord <= 0);
  case CmpOpKind::Gt:
    return Val::boolean(ord > 0);
  case CmpOpKind::Ge:
    return Val::boolean(ord >= 0);
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

Val Gen::evalCall(const CallExpr &e) {
  Val callee = eval(*e.func);
  CallArgs args;
  args.loc = e.func->loc;
  for (const ExprPtr &a : e.args) {
    if (auto *st = dyn_cast<StarredExpr>(a.get())) {
      Val inner = eval(*st->value);
      if (!inner.isTuple())
        fail(st->loc, "argument after * must be a tuple");
      for (const Val &v : inner.elts) {
        args.pos.push_back(v);
        args.posLocs.push_back(st->loc);
      }
      continue;
    }
    args.pos.push_back(eval(*a));
    args.posLocs.push_back(a->loc);
  }
  for (const Keyword &k : e.keywords) {
    if (k.name.empty())
      fail(k.loc, "'**' arguments are not supported in kernels");
    for (auto &prev : args.kw)
      if (prev.first == k.name)
        fail(k.loc, "keyword argument repeated: " + k.name);
    args.kw.emplace_back(k.name, eval(*k.value));
  }
  LocGuard lg(*this, e.loc);
  return call(callee, args, e.loc);
}

Val Gen::call(const Val &callee, CallArgs &args, SourceLoc loc) {
  switch (callee.kind) {
  case Val::Kind::Function:
    return callFunction(callee, args, loc);
  case Val::Kind::Builtin:
    if (llvm::StringRef(callee.s).starts_with("pl."))
      return callProfiler(callee.s, args, loc);
    return callBuiltin(callee.s, args, loc);
  case Val::Kind::Method: {
    if (isProfilerScope(callee))
      return callProfiler(callee.s, args, loc);
    args.pos.insert(args.pos.begin(), callee.elts[0]);
    args.posLocs.insert(args.posLocs.begin(), loc);
    return callBuiltin(callee.s, args, loc);
  }
  case Val::Kind::Module:
    // A name of a module txl did not find as a file: host code (torch, os)
    // or a module of jit helpers outside the search path.
    fail(loc, "'" + callee.s +
                  "' cannot be called in a kernel (its module is host code "
                  "or was not found: txlc -I DIR adds a directory to search)");
  default:
    fail(loc, "'" + callee.kindName() + "' object is not callable");
  }
}

// Used by Builtins.cpp for arange checks.
bool isPow2(int64_t v) { return isPowerOfTwo(v); }

} // namespace txl::irgen
