//===- Semantic.cpp - Triton typing rules on runtime values ---------------===//
//
// Promotion follows Triton's binary_op_type_checking_impl: a Python number
// next to a tensor of the same or higher kind (bool < int < float) takes the
// tensor's type; otherwise fp64 > fp32 > fp16 > bf16 > fp8 > ints (with /, //
// and % computing fp16/bf16 in fp32), and integers promote by width with
// unsigned winning at equal width. Shapes broadcast numpy-style after
// left-padding with 1s.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;

namespace txl::irgen {

Type Gen::mlirType(const DType &d) {
  switch (d.kind) {
  case DType::I1:
    return b.getI1Type();
  case DType::I8:
  case DType::U8:
    return b.getI8Type();
  case DType::I16:
  case DType::U16:
    return b.getI16Type();
  case DType::I32:
  case DType::U32:
    return b.getI32Type();
  case DType::I64:
  case DType::U64:
    return b.getI64Type();
  case DType::F8E4NV:
    return b.getType<Float8E4M3FNType>();
  case DType::F8E5:
    return b.getType<Float8E5M2Type>();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::F32:
    return b.getF32Type();
  case DType::F64:
    return b.getF64Type();
  case DType::Ptr:
    return ::mlir::txl::PointerType::get(mlirType(*d.pointee), d.addrSpace);
  case DType::Invalid:
    break;
  }
  fail(curSrc, "internal error: invalid dtype");
}

Type Gen::mlirType(const DType &d, const std::vector<int64_t> &shape) {
  Type elem = mlirType(d);
  if (shape.empty())
    return elem;
  // Every tensor type is made here, so no way of building one (broadcast,
  // join, reshape, ...) can exceed the cap.
  int64_t n = 1;
  for (int64_t dim : shape)
    if (dim < 1 || (n *= dim) > kMaxNumel)
      fail(curSrc, "a tensor of shape " + shapeStr(shape) +
                       " would have more than " + std::to_string(kMaxNumel) +
                       " elements");
  return RankedTensorType::get(shape, elem);
}

DType Gen::numberDType(const Val &v) {
  if (v.kind == Val::Kind::Bool)
    return DType::I1;
  if (v.kind == Val::Kind::Float) {
    double a = std::fabs(v.f);
    if (std::isfinite(a) && a > 3.4028234663852886e38)
      return DType::F64;
    return DType::F32;
  }
  if (v.kind == Val::Kind::Int && !v.b) {
    if (v.i >= INT32_MIN && v.i <= INT32_MAX)
      return DType::I32;
    if (v.i > 0 && v.i <= int64_t(UINT32_MAX))
      return DType::U32;
    return DType::I64;
  }
  return DType::U64; // a literal in [2^63, 2^64): `b` marks it
}

TValue Gen::constant(const DType &d, const Val &v,
                     const std::vector<int64_t> &shape) {
  Type elem = mlirType(d);
  TypedAttr attr;
  if (d.isFloat())
    attr = FloatAttr::get(elem, v.asDouble());
  else if (d.isInt())
    attr = IntegerAttr::get(elem, APInt(d.bitWidth(), uint64_t(v.asInt()),
                                        /*isSigned=*/false,
                                        /*implicitTrunc=*/true));
  else
    fail(curSrc, "cannot make a constant of type " + d.str());
  if (v.kind == Val::Kind::Float && d.isInt())
    attr = IntegerAttr::get(elem, APInt(d.bitWidth(), uint64_t(int64_t(v.f)),
                                        false, true));
  if (!shape.empty()) {
    auto type = RankedTensorType::get(shape, elem);
    attr = DenseElementsAttr::get(type, attr);
  }
  Value c = arith::ConstantOp::create(b, cur, attr);
  return {c, d, shape};
}

/// What to do instead of using a handle as a value.
static std::string handleHint(const TValue &t) {
  switch (t.space) {
  case TValue::Space::Smem:
  case TValue::Space::SmemArray:
    return " (use txl.smem_load to read a shared buffer)";
  case TValue::Space::Tmem:
  case TValue::Space::TmemArray:
    return " (use txl.tmem_load to read a tensor-memory buffer)";
  case TValue::Space::Desc:
    return " (a descriptor is read with txl.tma_load into a shared buffer)";
  default:
    return " (mbarriers are used through txl.mbar_* calls)";
  }
}

TValue Gen::toTensor(const Val &v, SourceLoc loc) {
  if (v.isTensor() && !v.t.isReg())
    fail(loc, "expected a tensor or a number, got a " + v.t.typeStr() +
                  handleHint(v.t));
  if (v.isTensor())
    return v.t;
  if (v.isNumber())
    return constant(numberDType(v), v);
  fail(loc, "expected a tensor or a number, got " + v.kindName() +
                (v.kind == Val::Kind::None ? "" : " " + v.repr()));
}

TValue Gen::splat(const TValue &v, const std::vector<int64_t> &shape) {
  if (shape.empty() || v.isTensor())
    return v;
  Value s = ::mlir::txl::SplatOp::create(b, cur, mlirType(v.dtype, shape), v.value);
  return {s, v.dtype, shape};
}

TValue Gen::expandDims(const TValue &v, int axis, SourceLoc loc) {
  int rank = int(v.shape.size());
  if (axis < 0)
    axis += rank + 1;
  if (axis < 0 || axis > rank)
    fail(loc, "expand_dims axis " + std::to_string(axis) +
                  " is out of range for a tensor of rank " +
                  std::to_string(rank));
  if (!v.isTensor())
    return splat(v, {1});
  std::vector<int64_t> shape = v.shape;
  shape.insert(shape.begin() + axis, 1);
  Value r = ::mlir::txl::ExpandDimsOp::create(b, cur, mlirType(v.dtype, shape),
                                      v.value, b.getI32IntegerAttr(axis));
  return {r, v.dtype, shape};
}

TValue Gen::reshape(const TValue &v, const std::vector<int64_t> &shape,
                    bool allowReorder, SourceLoc loc) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  if (n != v.numel())
    fail(loc, "cannot reshape " + shapeStr(v.shape) + " to " +
                  shapeStr(shape) + ": the number of elements differs");
  if (!v.isTensor())
    return splat(v, shape);
  if (shape == v.shape)
    return v;
  if (shape.empty())
    fail(loc, "cannot reshape a tensor to a scalar");
  auto op = ::mlir::txl::ReshapeOp::create(b, cur, mlirType(v.dtype, shape), v.value);
  if (allowReorder)
    op.setAllowReorder(true);
  return {op.getResult(), v.dtype, shape};
}

TValue Gen::broadcastTo(const TValue &v, const std::vector<int64_t> &shape,
                        SourceLoc loc) {
  if (v.shape == shape)
    return v;
  if (!v.isTensor())
    return splat(v, shape);
  if (v.shape.size() > shape.size())
    fail(loc, "cannot broadcast shape " + shapeStr(v.shape) + " to " +
                  shapeStr(shape));
  TValue x = v;
  while (x.shape.size() < shape.size())
    x = expandDims(x, 0, loc);
  for (size_t i = 0; i < shape.size(); ++i)
    if (x.shape[i] != shape[i] && x.shape[i] != 1)
      fail(loc, "cannot broadcast shape " + shapeStr(v.shape) + " to " +
                    shapeStr(shape));
  if (x.shape == shape)
    return x;
  Value r = ::mlir::txl::BroadcastOp::create(b, cur, mlirType(x.dtype, shape), x.value);
  return {r, x.dtype, shape};
}

std::pair<TValue, TValue> Gen::broadcastPair(TValue a, TValue c,
                                             SourceLoc loc) {
  if (!a.isTensor() && !c.isTensor())
    return {a, c};
  if (!a.isTensor())
    return {splat(a, c.shape), c};
  if (!c.isTensor())
    return {a, splat(c, a.shape)};
  std::vector<int64_t> sa = a.shape, sc = c.shape;
  while (sa.size() < sc.size())
    sa.insert(sa.begin(), 1);
  while (sc.size() < sa.size())
    sc.insert(sc.begin(), 1);
  std::vector<int64_t> out(sa.size());
  for (size_t i = 0; i < sa.size(); ++i) {
    if (sa[i] == sc[i] || sc[i] == 1)
      out[i] = sa[i];
    else if (sa[i] == 1)
      out[i] = sc[i];
    else
      fail(loc, "incompatible shapes " + shapeStr(a.shape) + " and " +
                    shapeStr(c.shape));
  }
  return {broadcastTo(a, out, loc), broadcastTo(c, out, loc)};
}

static int kindRank(const DType &d) {
  if (d.isBool())
    return 0;
  if (d.isInt())
    return 1;
  return 2;
}

static DType integerPromote(const DType &a, const DType &b) {
  int wa = a.bitWidth(), wb = b.bitWidth();
  if (a.isUnsigned() != b.isUnsigned()) {
    if (a.isUnsigned())
      return wa >= wb ? a : b;
    return wb >= wa ? b : a;
  }
  return wa > wb ? a : b;
}

DType Gen::computationType(const DType &a, bool aScalar, const DType &c,
                           bool cScalar, bool divOrMod, SourceLoc loc,
                           const char *opName) {
  if (aScalar != cScalar) {
    const DType &scalar = aScalar ? a : c;
    const DType &tensor = aScalar ? c : a;
    if (kindRank(scalar) <= kindRank(tensor)) {
      if (divOrMod &&
          (tensor.kind == DType::F16 || tensor.kind == DType::BF16))
        return DType::F32;
      return tensor;
    }
  }
  if (a.kind == DType::F64 || c.kind == DType::F64)
    return DType::F64;
  if (a.kind == DType::F32 || c.kind == DType::F32)
    return DType::F32;
  if (a.kind == DType::F16 || c.kind == DType::F16)
    return divOrMod ? DType::F32 : DType::F16;
  if (a.kind == DType::BF16 || c.kind == DType::BF16) {
    if (divOrMod)
      return DType::F32;
    if (a.kind == DType::BF16 && c.kind == DType::BF16)
      return DType::BF16;
    return DType::F32;
  }
  if (a.isFP8() && c.isFP8())
    return a == c ? a : DType(DType::F16);
  if (!a.isInt() || !c.isInt())
    fail(loc, std::string("unexpected operand types ") + a.str() + " and " +
                  c.str() + " for " + opName);
  if (divOrMod && a.isUnsigned() != c.isUnsigned() && !a.isBool() &&
      !c.isBool())
    // Capitalised as Triton's message is: code and tests match it.
    fail(loc, std::string("Cannot use ") + opName + " with " + a.str() +
                  " and " + c.str() +
                  " because they have different signedness; cast them to "
                  "the same signedness");
  return integerPromote(a, c);
}

static bool fitsIn(int64_t v, bool bigUnsigned, const DType &d) {
  if (bigUnsigned)
    return d.kind == DType::U64;
  int w = d.bitWidth();
  if (d.isBool())
    return v == 0 || v == 1;
  if (d.isUnsigned())
    return v >= 0 && (w >= 64 || v < (int64_t(1) << w));
  if (w >= 64)
    return true;
  return v >= -(int64_t(1) << (w - 1)) && v < (int64_t(1) << (w - 1));
}

std::pair<TValue, TValue>
Gen::checkBinary(const Val &a, const Val &c, SourceLoc loc, bool allowLhsPtr,
                 bool allowRhsPtr, bool arithmetic, bool divOrMod,
                 const char *opName) {
  bool aScalar = a.isNumber(), cScalar = c.isNumber();
  if (!aScalar && !a.isTensor())
    fail(loc, std::string("unsupported operand type for ") + opName + ": " +
                  a.kindName());
  if (!cScalar && !c.isTensor())
    fail(loc, std::string("unsupported operand type for ") + opName + ": " +
                  c.kindName());
  // Shared buffers, mbarriers and descriptors are handles: every binary
  // op (arithmetic, comparisons, tl.minimum/maximum, ...) comes here.
  for (const Val *v : {&a, &c})
    if (v->isTensor() && !v->t.isReg())
      fail(loc, std::string("unsupported operand type for ") + opName + ": a " +
                    v->t.typeStr() + handleHint(v->t));
  DType ta = aScalar ? numberDType(a) : a.t.dtype;
  DType tc = cScalar ? numberDType(c) : c.t.dtype;
  auto checkPtr = [&](const DType &x, const DType &y, bool allow) {
    if (!x.isPtr())
      return;
    if (!allow)
      fail(loc, std::string("unsupported operand types for ") + opName +
                    ": " + ta.str() + " and " + tc.str());
    if (y.isPtr())
      fail(loc, std::string("cannot ") + opName + " pointers together");
    if (y.isFloat())
      fail(loc, std::string("unsupported operand types for ") + opName +
                    ": " + ta.str() + " and " + tc.str());
  };
  checkPtr(ta, tc, allowLhsPtr);
  checkPtr(tc, ta, allowRhsPtr);
  TValue va, vc;
  if (arithmetic && !ta.isPtr() && !tc.isPtr()) {
    DType ret =
        computationType(ta, aScalar, tc, cScalar, divOrMod, loc, opName);
    for (const Val *s : {&a, &c}) {
      if (!s->isIntLike() || !ret.isInt())
        continue;
      if (ret.isUnsigned() && s->asInt() < 0 && !s->b)
        fail(loc, "cannot perform a binary operation between an unsigned "
                  "tensor and a negative scalar; cast one of them explicitly");
      if (!fitsIn(s->asInt(), s->kind == Val::Kind::Int && s->b, ret))
        fail(loc, "scalar " + s->repr() + " is out of range for type " +
                      ret.str());
    }
    va = aScalar ? constant(ret, a) : cast(a.t, ret, loc);
    vc = cScalar ? constant(ret, c) : cast(c.t, ret, loc);
  } else {
    va = aScalar ? toTensor(a, loc) : a.t;
    vc = cScalar ? toTensor(c, loc) : c.t;
  }
  return broadcastPair(va, vc, loc);
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

TValue Gen::cast(const TValue &v, const DType &to, SourceLoc loc,
                 bool bitcast) {
  if (v.dtype == to)
    return v;
  const DType &from = v.dtype;
  Type dst = mlirType(to, v.shape);
  auto make = [&](Value r) { return TValue{r, to, v.shape}; };
  if (bitcast) {
    if (from.bitWidth() != to.bitWidth())
      fail(loc, "cannot bitcast data-type of size " +
                    std::to_string(from.bitWidth()) + " to data-type of size " +
                    std::to_string(to.bitWidth()));
    if (mlirType(from) == mlirType(to))
      return make(v.value);
    return make(::mlir::txl::BitcastOp::create(b, cur, dst, v.value));
  }
  if (from.isPtr() && to.isPtr())
    return make(::mlir::txl::BitcastOp::create(b, cur, dst, v.value));
  if (from.isPtr()) {
    if (!to.isInt())
      fail(loc, "cannot cast " + from.str() + " to " + to.str());
    Value i = ::mlir::txl::PtrToIntOp::create(b, cur, mlirType(DType::I64, v.shape),
                                      v.value);
    return cast(TValue{i, DType::I64, v.shape}, to, loc);
  }
  if (to.isPtr()) {
    if (!from.isInt())
      fail(loc, "cannot cast " + from.str() + " to " + to.str());
    TValue i = cast(v, DType::I64, loc);
    return make(::mlir::txl::IntToPtrOp::create(b, cur, dst, i.value));
  }
  if (from.isFloat() && to.isFloat()) {
    if ((from.isFP8() || to.isFP8()) && smVersion() < 89)
      fail(loc, "converting " + from.str() + " to " + to.str() +
                    " needs sm_89 or later (cvt to and from fp8), but the "
                    "target is " +
                    opts.target);
    // fp16 <-> bf16 have the same width: go through fp32.
    if (from.bitWidth() == to.bitWidth())
      return cast(cast(v, DType::F32, loc), to, loc);
    if (to.bitWidth() > from.bitWidth())
      return make(arith::ExtFOp::create(b, cur, dst, v.value));
    return make(arith::TruncFOp::create(b, cur, dst, v.value));
  }
  if (from.isFloat() && to.isInt()) {
    if (to.isBool()) {
      TValue zero = constant(from, Val::floating(0.0), v.shape);
      return make(arith::CmpFOp::create(b, cur, arith::CmpFPredicate::UNE,
                                        v.value, zero.value));
    }
    if (to.isSigned())
      return make(arith::FPToSIOp::create(b, cur, dst, v.value));
    return make(arith::FPToUIOp::create(b, cur, dst, v.value));
  }
  if (from.isInt() && to.isFloat()) {
    if (from.isBool() || from.isUnsigned())
      return make(arith::UIToFPOp::create(b, cur, dst, v.value));
    return make(arith::SIToFPOp::create(b, cur, dst, v.value));
  }
  if (from.isInt() && to.isInt()) {
    if (to.isBool()) {
      TValue zero = constant(from, Val::integer(0), v.shape);
      return make(arith::CmpIOp::create(b, cur, arith::CmpIPredicate::ne,
                                        v.value, zero.value));
    }
    int wf = from.bitWidth(), wt = to.bitWidth();
    if (wf == wt)
      return make(v.value);
    if (wt < wf)
      return make(arith::TruncIOp::create(b, cur, dst, v.value));
    if (from.isSigned())
      return make(arith::ExtSIOp::create(b, cur, dst, v.value));
    return make(arith::ExtUIOp::create(b, cur, dst, v.value));
  }
  fail(loc, "cannot cast " + from.str() + " to " + to.str());
}

TValue Gen::toBool(const TValue &v, SourceLoc loc) {
  if (v.dtype.isBool())
    return v;
  if (v.dtype.isPtr())
    fail(loc, "cannot use a pointer as a condition");
  return cast(v, DType::I1, loc);
}

//===----------------------------------------------------------------------===//
// Binary / unary / compare
//===----------------------------------------------------------------------===//

/// Shared buffers, mbarriers and descriptors are handles, not values:
/// arithmetic on them is a user error (smem_load reads a buffer).
static void requireRegisterValues(Gen &g, std::initializer_list<const Val *> vals,
                                  SourceLoc loc) {
  for (const Val *v : vals)
    if (v->isTensor() && !v->t.isReg())
      g.fail(loc, "expected a tensor or a number, got a " + v->t.typeStr() +
                      handleHint(v->t));
}

Val Gen::binary(BinOpKind op, const Val &a, const Val &c, SourceLoc loc) {
  requireRegisterValues(*this, {&a, &c}, loc);
  // Tuples concatenate and repeat whatever they hold (tensors included:
  // `arr = arr + (t,)` builds a tuple of tensors in a static_range).
  if ((a.isConstant() && c.isConstant()) || a.isTuple() || c.isTuple())
    if (std::optional<Val> folded = foldBinary(op, a, c, loc))
      return *folded;
  const char *name = spelling(op);
  auto result = [](Value v, const TValue &like) {
    return Val::tensor(TValue{v, like.dtype, like.shape});
  };
  switch (op) {
  case BinOpKind::Add:
  case BinOpKind::Sub: {
    bool isAdd = op == BinOpKind::Add;
    auto [x, y] = checkBinary(a, c, loc, true, isAdd, true, false, name);
    if (y.dtype.isPtr())
      std::swap(x, y);
    if (x.dtype.isPtr()) {
      if (!isAdd)
        y = TValue{arith::SubIOp::create(
                       b, cur, constant(y.dtype, Val::integer(0), y.shape).value,
                       y.value),
                   y.dtype, y.shape};
      return result(::mlir::txl::AddPtrOp::create(b, cur, x.value.getType(), x.value,
                                          y.value),
                    x);
    }
    if (x.dtype.isFloat())
      return result(isAdd ? Value(arith::AddFOp::create(b, cur, x.value, y.value))
                          : Value(arith::SubFOp::create(b, cur, x.value, y.value)),
                    x);
    return result(isAdd ? Value(arith::AddIOp::create(b, cur, x.value, y.value))
                        : Value(arith::SubIOp::create(b, cur, x.value, y.value)),
                  x);
  }
  case BinOpKind::Mul: {
    auto [x, y] = checkBinary(a, c, loc, false, false, true, false, name);
    if (x.dtype.isFloat())
      return result(arith::MulFOp::create(b, cur, x.value, y.value), x);
    return result(arith::MulIOp::create(b, cur, x.value, y.value), x);
  }
  case BinOpKind::Div: {
    auto [x, y] = checkBinary(a, c, loc, false, false, true, true, name);
    if (x.dtype.isInt()) {
      x = cast(x, DType::F32, loc);
      y = cast(y, DType::F32, loc);
    }
    return result(arith::DivFOp::create(b, cur, x.value, y.value), x);
  }
  case BinOpKind::FloorDiv: {
    auto [x, y] = checkBinary(a, c, loc, false, false, true, true, name);
    if (x.dtype.isFloat()) {
      Value q = arith::DivFOp::create(b, cur, x.value, y.value);
      return result(math::FloorOp::create(b, cur, q), x);
    }
    if (x.dtype.isUnsigned() || x.dtype.isBool())
      return result(arith::DivUIOp::create(b, cur, x.value, y.value), x);
    return result(arith::DivSIOp::create(b, cur, x.value, y.value), x);
  }
  case BinOpKind::Mod: {
    auto [x, y] = checkBinary(a, c, loc, false, false, true, true, name);
    if (x.dtype.isFloat())
      return result(arith::RemFOp::create(b, cur, x.value, y.value), x);
    if (x.dtype.isUnsigned() || x.dtype.isBool())
      return result(arith::RemUIOp::create(b, cur, x.value, y.value), x);
    return result(arith::RemSIOp::create(b, cur, x.value, y.value), x);
  }
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor:
  case BinOpKind::LShift:
  case BinOpKind::RShift: {
    auto [x, y] = checkBinary(a, c, loc, false, false, true, false, name);
    // Triton's wording ("invalid operands of type"): code and tests match it.
    if (!x.dtype.isInt())
      fail(loc, std::string("invalid operands of type ") + x.dtype.str() +
                    " and " + y.dtype.str() + " for " + name +
                    " (it needs integers)");
    Value r;
    if (op == BinOpKind::BitAnd)
      r = arith::AndIOp::create(b, cur, x.value, y.value);
    else if (op == BinOpKind::BitOr)
      r = arith::OrIOp::create(b, cur, x.value, y.value);
    else if (op == BinOpKind::BitXor)
      r = arith::XOrIOp::create(b, cur, x.value, y.value);
    else if (op == BinOpKind::LShift)
      r = arith::ShLIOp::create(b, cur, x.value, y.value);
    else if ((a.isTensor()   ? a.t.dtype
              : c.isTensor() ? c.t.dtype
                             : x.dtype)
                 .isSigned())
      // Triton: `>>` is arithmetic when the tensor operand (the left one,
      // or the right one under a number) is signed, whatever the common
      // type is (int8 >> uint8 computes in uint8, arithmetically).
      r = arith::ShRSIOp::create(b, cur, x.value, y.value);
    else
      r = arith::ShRUIOp::create(b, cur, x.value, y.value);
    return result(r, x);
  }
  case BinOpKind::Pow:
    fail(loc, "'**' is only supported on compile-time constants; use "
              "tl.exp2/tl.log2 or multiplication for tensors");
  case BinOpKind::MatMul:
    if (!a.isTensor() || !c.isTensor() || !a.t.isTensor() || !c.t.isTensor())
      fail(loc, "'@' needs two tensors");
    return Val::tensor(dot(a.t, c.t, std::nullopt,
                           ::mlir::txl::InputPrecision::TF32, loc));
  }
  fail(loc, "unsupported binary operator");
}

Val Gen::compare(CmpOpKind op, const Val &a, const Val &c, SourceLoc loc) {
  requireRegisterValues(*this, {&a, &c}, loc);
  if (a.isConstant() && c.isConstant())
    if (std::optional<Val> folded = foldCompare(op, a, c, loc))
      return *folded;
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    // A runtime value is never None / never identical to a constant.
    bool same = a.isTensor() && c.isTensor() && a.t.value == c.t.value;
    return Val::boolean((op == CmpOpKind::Is) == same);
  }
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn)
    fail(loc, "'in' is only supported on compile-time tuples");
  const char *name = spelling(op);
  bool ptrs = (a.isTensor() && a.t.dtype.isPtr()) ||
              (c.isTensor() && c.t.dtype.isPtr());
  TValue x, y;
  if (ptrs) {
    if (!a.isTensor() || !c.isTensor() || !a.t.dtype.isPtr() ||
        !c.t.dtype.isPtr())
      fail(loc, std::string("unsupported operand types for ") + name);
    std::tie(x, y) = broadcastPair(cast(a.t, DType::U64, loc),
                                   cast(c.t, DType::U64, loc), loc);
  } else {
    std::tie(x, y) = checkBinary(a, c, loc, false, false, true, false, name);
  }
  Value r;
  if (x.dtype.isFloat()) {
    arith::CmpFPredicate p;
    switch (op) {
    case CmpOpKind::Lt: p = arith::CmpFPredicate::OLT; break;
    case CmpOpKind::Le: p = arith::CmpFPredicate::OLE; break;
    case CmpOpKind::Gt: p = arith::CmpFPredicate::OGT; break;
    case CmpOpKind::Ge: p = arith::CmpFPredicate::OGE; break;
    case CmpOpKind::Eq: p = arith::CmpFPredicate::OEQ; break;
    default: p = arith::CmpFPredicate::UNE; break;
    }
    r = arith::CmpFOp::create(b, cur, p, x.value, y.value);
  } else {
    bool u = x.dtype.isUnsigned() || x.dtype.isBool();
    arith::CmpIPredicate p;
    switch (op) {
    case CmpOpKind::Lt: p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
    case CmpOpKind::Le: p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
    case CmpOpKind::Gt: p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
    case CmpOpKind::Ge: p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
    case CmpOpKind::Eq: p = arith::CmpIPredicate::eq; break;
    default: p = arith::CmpIPredicate::ne; break;
    }
    r = arith::CmpIOp::create(b, cur, p, x.value, y.value);
  }
  return Val::tensor(TValue{r, DType::I1, x.shape});
}

Val Gen::unary(UnaryOpKind op, const Val &a, SourceLoc loc) {
  requireRegisterValues(*this, {&a}, loc);
  if (a.isConstant()) {
    switch (op) {
    case UnaryOpKind::Not:
      return Val::boolean(!truthy(a, loc));
    case UnaryOpKind::Pos:
      if (a.isNumber())
        return a.kind == Val::Kind::Bool ? Val::integer(a.b) : a;
      break;
    case UnaryOpKind::Neg:
      if (a.kind == Val::Kind::Float)
        return Val::floating(-a.f);
      if (a.isIntLike()) {
        if (a.asInt() == INT64_MIN)
          fail(loc, "integer overflow in constant expression");
        return Val::integer(-a.asInt());
      }
      break;
    case UnaryOpKind::Invert:
      if (a.isIntLike())
        return Val::integer(~a.asInt());
      break;
    }
    fail(loc, std::string("bad operand type for unary ") + spelling(op) +
                  ": " + a.kindName());
  }
  if (!a.isTensor())
    fail(loc, std::string("bad operand type for unary ") + spelling(op) +
                  ": " + a.kindName());
  const TValue &x = a.t;
  if (x.dtype.isPtr() && op != UnaryOpKind::Pos)
    fail(loc, std::string("bad operand type for unary ") + spelling(op) +
                  ": " + x.dtype.str());
  switch (op) {
  case UnaryOpKind::Pos:
    return a;
  case UnaryOpKind::Neg:
    if (x.dtype.isFloat())
      return Val::tensor({arith::NegFOp::create(b, cur, x.value), x.dtype,
                          x.shape});
    return binary(BinOpKind::Sub, Val::tensor(constant(x.dtype, Val::integer(0), x.shape)), a,
                  loc);
  case UnaryOpKind::Invert: {
    if (!x.dtype.isInt())
      fail(loc, "bad operand type for unary ~: " + x.dtype.str());
    TValue ones = constant(x.dtype, Val::integer(-1), x.shape);
    return Val::tensor(
        {arith::XOrIOp::create(b, cur, x.value, ones.value), x.dtype, x.shape});
  }
  case UnaryOpKind::Not: {
    TValue c = toBool(x, loc);
    TValue t = constant(DType::I1, Val::boolean(true), c.shape);
    return Val::tensor(
        {arith::XOrIOp::create(b, cur, c.value, t.value), DType::I1, c.shape});
  }
  }
  fail(loc, "unsupported unary operator");
}

Val Gen::logical(bool isAnd, const Val &a, const Val &c, SourceLoc loc) {
  TValue x = toBool(toTensor(a, loc), loc);
  TValue y = toBool(toTensor(c, loc), loc);
  std::tie(x, y) = broadcastPair(x, y, loc);
  Value r = isAnd ? Value(arith::AndIOp::create(b, cur, x.value, y.value))
                  : Value(arith::OrIOp::create(b, cur, x.value, y.value));
  return Val::tensor({r, DType::I1, x.shape});
}

Val Gen::where(const Val &cond, const Val &x, const Val &y, SourceLoc loc) {
  requireRegisterValues(*this, {&cond, &x, &y}, loc);
  TValue c = toBool(toTensor(cond, loc), loc);
  // Pointers of one type choose between themselves (checkBinary refuses
  // two pointers, as arithmetic must).
  bool pointers =
      x.isTensor() && y.isTensor() && x.t.dtype.isPtr() && y.t.dtype.isPtr();
  if (pointers && x.t.dtype != y.t.dtype)
    fail(loc, "where: operands have different types " + x.t.dtype.str() +
                  " and " + y.t.dtype.str());
  auto [vx, vy] =
      pointers ? std::make_pair(x.t, y.t)
               : checkBinary(x, y, loc, true, true, true, false, "where");
  if (vx.dtype != vy.dtype)
    fail(loc, "where: operands have different types " + vx.dtype.str() +
                  " and " + vy.dtype.str());
  std::tie(c, vx) = broadcastPair(c, vx, loc);
  std::tie(c, vy) = broadcastPair(c, vy, loc);
  std::tie(vx, vy) = broadcastPair(vx, vy, loc);
  Value r = arith::SelectOp::create(b, cur, c.value, vx.value, vy.value);
  return Val::tensor({r, vx.dtype, vx.shape});
}

Val Gen::minMax(bool isMax, const Val &a, const Val &c, SourceLoc loc,
                bool propagateNan) {
  auto [x, y] = checkBinary(a, c, loc, false, false, true, false,
                            isMax ? "maximum" : "minimum");
  Value r;
  if (x.dtype.isFloat()) {
    if (propagateNan)
      r = isMax ? Value(arith::MaximumFOp::create(b, cur, x.value, y.value))
                : Value(arith::MinimumFOp::create(b, cur, x.value, y.value));
    else
      r = isMax ? Value(arith::MaxNumFOp::create(b, cur, x.value, y.value))
                : Value(arith::MinNumFOp::create(b, cur, x.value, y.value));
  } else if (x.dtype.isSigned()) {
    r = isMax ? Value(arith::MaxSIOp::create(b, cur, x.value, y.value))
              : Value(arith::MinSIOp::create(b, cur, x.value, y.value));
  } else {
    r = isMax ? Value(arith::MaxUIOp::create(b, cur, x.value, y.value))
              : Value(arith::MinUIOp::create(b, cur, x.value, y.value));
  }
  return Val::tensor({r, x.dtype, x.shape});
}

} // namespace txl::irgen
