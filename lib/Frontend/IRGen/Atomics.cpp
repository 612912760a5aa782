//===- Atomics.cpp - tl.atomic_add/max/min/and/or/xor/xchg/cas ------------===//
//
// Triton's atomics: a pointer (tensor), a value broadcast to its shape and
// cast to its element type, an optional mask, memory semantics (default
// acq_rel) and scope (default gpu); the old values come back. Floating-point
// max/min use the integer trick Triton uses: a non-negative float orders
// like its bits as a signed integer, a negative one inversely to its bits
// as an unsigned integer, so max is a signed max where val's sign bit is
// clear and an unsigned min elsewhere (min: signed min / unsigned max).
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace mlir;

namespace txl::irgen {

namespace {

struct AtomicArgs {
  TValue ptr;
  DType elem;
  TValue mask; ///< null value: unmasked
  std::string sem, scope;
};

std::string choice(Gen &g, const std::optional<Val> &v, const char *what,
                   const std::string &fname, const char *dflt,
                   std::initializer_list<const char *> allowed, SourceLoc loc) {
  if (!v || v->isNone())
    return dflt;
  if (v->kind == Val::Kind::Str)
    for (const char *a : allowed)
      if (v->s == a)
        return v->s;
  std::string list;
  for (const char *a : allowed)
    list += std::string(list.empty() ? "'" : ", '") + a + "'";
  g.fail(loc, fname + ": " + what + " must be one of " + list + ", got " +
                  v->repr());
}

/// The pointer, and the target facts every atomic shares.
AtomicArgs pointerArgs(Gen &g, const std::string &fname,
                       const std::optional<Val> &ptrArg,
                       const std::optional<Val> &sem,
                       const std::optional<Val> &scope, SourceLoc loc) {
  if (isBlockPointer(*ptrArg))
    g.fail(loc, fname + ": block pointers are not supported; use a tensor "
                        "of pointers");
  if (!ptrArg->isTensor() || !ptrArg->t.isReg() || !ptrArg->t.dtype.isPtr())
    g.fail(loc,
           fname + ": expected a pointer or a tensor of pointers, got " +
               (ptrArg->isTensor() ? ptrArg->t.typeStr() : ptrArg->kindName()));
  AtomicArgs a;
  a.ptr = ptrArg->t;
  a.elem = *a.ptr.dtype.pointee;
  a.sem = choice(g, sem, "sem", fname, "acq_rel",
                 {"acquire", "release", "acq_rel", "relaxed"}, loc);
  a.scope = choice(g, scope, "scope", fname, "gpu", {"gpu", "cta", "sys"}, loc);
  if (g.smVersion() < 70)
    g.fail(loc, fname + " needs sm_70 or later");
  return a;
}

/// `v` broadcast to the pointer's shape and cast to its element type.
TValue operandFor(Gen &g, const AtomicArgs &a, const Val &v, const char *what,
                  SourceLoc loc) {
  if (!v.isTensor() && !v.isNumber())
    g.fail(loc, std::string(what) + " must be a tensor or a number, got " +
                    v.kindName());
  TValue t = v.isTensor() ? v.t : g.constant(a.elem, v);
  if (t.isTensor() && !a.ptr.isTensor())
    g.fail(loc, std::string(what) + " argument cannot be a block if the "
                                    "pointer argument is not a block");
  return g.broadcastTo(g.cast(t, a.elem, loc), a.ptr.shape, loc);
}

TValue maskFor(Gen &g, const AtomicArgs &a, const std::optional<Val> &m,
               SourceLoc loc) {
  if (!m || m->isNone())
    return {};
  TValue mask = g.tensorArg(m, "mask", loc);
  if (!a.ptr.isTensor() && mask.isTensor())
    g.fail(loc, "mask argument cannot be a block if the pointer argument "
                "is not a block");
  if (!mask.dtype.isBool())
    g.fail(loc, "mask must have boolean scalar type, got " + mask.typeStr());
  return g.broadcastTo(mask, a.ptr.shape, loc);
}

TValue rmw(Gen &g, const char *kind, const AtomicArgs &a, const TValue &ptr,
           const TValue &val, const TValue &mask) {
  auto op = ::mlir::txl::AtomicRMWOp::create(
      g.b, g.cur, val.value.getType(), g.b.getStringAttr(kind), ptr.value,
      val.value, mask.value, g.b.getStringAttr(a.sem),
      g.b.getStringAttr(a.scope));
  if (!a.ptr.isTensor())
    g.markScalarPerformer(op);
  return {op.getResult(), val.dtype, val.shape};
}

/// Float max/min as two integer atomics on the same addresses.
TValue floatMaxMin(Gen &g, bool isMax, const AtomicArgs &a, const TValue &val,
                   const TValue &mask, SourceLoc loc) {
  unsigned bits = a.elem.bitWidth();
  DType si = bits == 64 ? DType(DType::I64) : DType(DType::I32);
  DType ui = bits == 64 ? DType(DType::U64) : DType(DType::U32);
  int as = a.ptr.dtype.addrSpace;
  TValue ptrS = g.cast(a.ptr, DType::pointerTo(si, as), loc);
  TValue ptrU = g.cast(a.ptr, DType::pointerTo(ui, as), loc);
  // By the sign bit, not `val >= 0`: -0.0 is negative here, so that it
  // takes the unsigned side and beats -FLT_MAX in a max (+0.0 > -0.0).
  Val nonNegative =
      g.compare(CmpOpKind::Ge, Val::tensor(g.cast(val, si, loc, true)),
                Val::integer(0), loc);
  Val negative = g.unary(UnaryOpKind::Not, nonNegative, loc);
  auto within = [&](const Val &sign) {
    return mask.value ? g.logical(true, Val::tensor(mask), sign, loc).t
                      : sign.t;
  };
  TValue oldS =
      rmw(g, isMax ? "max" : "min", a, ptrS,
          g.cast(val, si, loc, /*bitcast=*/true), within(nonNegative));
  TValue oldU = rmw(g, isMax ? "umin" : "umax", a, ptrU,
                    g.cast(val, ui, loc, /*bitcast=*/true), within(negative));
  Val fromS = Val::tensor(g.cast(oldS, a.elem, loc, /*bitcast=*/true));
  Val fromU = Val::tensor(g.cast(oldU, a.elem, loc, /*bitcast=*/true));
  return g.where(nonNegative, fromS, fromU, loc).t;
}

/// Whether the hardware has the atomic `op` on `elem` (PTX atom); fails
/// with Triton's wording otherwise.
void checkElement(Gen &g, const std::string &fname, const std::string &op,
                  const DType &elem, SourceLoc loc) {
  std::string base = "atomic_" + op;
  if (elem.isBool() || elem.isFP8() || elem.bitWidth() < 16 || elem.isPtr())
    g.fail(loc, base + " does not support " + elem.str());
  if (elem.bitWidth() == 16 && !elem.isFloat())
    g.fail(loc, base + " does not support " + elem.str());
  if (elem.bitWidth() == 16 && op != "add")
    g.fail(loc, base + " does not support " + elem.str() +
                    " (only atomic_add has 16-bit float forms)");
  if (elem.kind == DType::BF16 && g.smVersion() < 90)
    g.fail(loc, fname + " on bf16 needs sm_90 or later, but the target is " +
                    g.opts.target);
  if (elem.isFloat() && (op == "and" || op == "or" || op == "xor"))
    g.fail(loc, base + " does not support " + elem.str());
}

} // namespace

namespace handlers {

/// tl.atomic_add/max/min/and/or/xor/xchg(pointer, val, mask, sem, scope).
Val atomicRMW(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p =
      g.bind(args, {"pointer", "val", "mask", "sem", "scope"}, 2, name, loc);
  std::string op = name.substr(std::string("tl.atomic_").size());
  AtomicArgs a = pointerArgs(g, name, p[0], p[3], p[4], loc);
  checkElement(g, name, op, a.elem, loc);
  TValue val = operandFor(g, a, *p[1], "val", loc);
  TValue mask = maskFor(g, a, p[2], loc);
  if (a.elem.isFloat() && (op == "max" || op == "min"))
    return Val::tensor(floatMaxMin(g, op == "max", a, val, mask, loc));
  std::string kind = op;
  if (op == "add" && a.elem.isFloat())
    kind = "fadd";
  else if ((op == "max" || op == "min") && a.elem.isUnsigned())
    kind = "u" + op;
  return Val::tensor(rmw(g, kind.c_str(), a, a.ptr, val, mask));
}

/// tl.atomic_cas(pointer, cmp, val, sem, scope).
Val atomicCAS(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p =
      g.bind(args, {"pointer", "cmp", "val", "sem", "scope"}, 3, name, loc);
  AtomicArgs a = pointerArgs(g, name, p[0], p[3], p[4], loc);
  unsigned bits = a.elem.bitWidth();
  if (a.elem.isPtr() || a.elem.isBool() ||
      (bits != 16 && bits != 32 && bits != 64))
    g.fail(loc, "atomic_cas only supports elements with width {16, 32, 64}, "
                "got " +
                    a.elem.str());
  TValue cmp = operandFor(g, a, *p[1], "cmp", loc);
  TValue val = operandFor(g, a, *p[2], "val", loc);
  auto op = ::mlir::txl::AtomicCASOp::create(
      g.b, g.cur, val.value.getType(), a.ptr.value, cmp.value, val.value,
      g.b.getStringAttr(a.sem), g.b.getStringAttr(a.scope));
  if (!a.ptr.isTensor())
    g.markScalarPerformer(op);
  return Val::tensor({op.getResult(), val.dtype, val.shape});
}

} // namespace handlers

} // namespace txl::irgen
