//===- MathShape.cpp - tl math functions and shape manipulation -----------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include <map>

using namespace mlir;

namespace txl::irgen {

/// Unary float functions restricted to fp32/fp64 like Triton's
/// `_check_dtype(dtypes=["fp32", "fp64"])`.
static TValue floatOperand(Gen &g, const Val &v, const std::string &name,
                           SourceLoc loc) {
  TValue x = g.toTensor(v, loc);
  if (x.dtype.kind != DType::F32 && x.dtype.kind != DType::F64)
    g.fail(loc, name + ": expected dtype ['fp32', 'fp64'] but got " +
                    x.dtype.str());
  return x;
}

/// The one element of `x` as a scalar: a reduction whose combine keeps
/// its first operand (every copy a layout replicates is that element).
TValue Gen::scalarOf(const TValue &x, SourceLoc loc) {
  if (!x.isTensor())
    return x;
  if (x.numel() != 1)
    fail(loc, "only a tensor of one element can become a scalar, got " +
                  x.typeStr());
  TValue flat = reshape(x, {1}, false, loc);
  return reduce({flat}, 0, loc, [](const std::vector<Val> &args) {
    return std::vector<Val>{args[0]};
  })[0];
}

namespace handlers {

template <typename MathOp>
static Value unaryOp(OpBuilder &b, Location loc, Value x) {
  return MathOp::create(b, loc, x);
}

/// The fp32/fp64 functions that map to one `math` op each (the libdevice
/// ones lower to their __nv_* functions, MathOpToLLVM.cpp).
Val floatUnary(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  using Build = Value (*)(OpBuilder &, Location, Value);
  static const std::map<std::string, Build> ops = {
      {"tl.exp", unaryOp<math::ExpOp>},
      {"tl.exp2", unaryOp<math::Exp2Op>},
      {"tl.log", unaryOp<math::LogOp>},
      {"tl.log2", unaryOp<math::Log2Op>},
      {"tl.sqrt", unaryOp<math::SqrtOp>},
      {"tl.sqrt_rn", unaryOp<math::SqrtOp>},
      {"tl.rsqrt", unaryOp<math::RsqrtOp>},
      {"tl.sin", unaryOp<math::SinOp>},
      {"tl.cos", unaryOp<math::CosOp>},
      {"tl.erf", unaryOp<math::ErfOp>},
      {"tl.floor", unaryOp<math::FloorOp>},
      {"tl.ceil", unaryOp<math::CeilOp>},
      {"tl.tanh", unaryOp<math::TanhOp>},
      {"libdevice.asin", unaryOp<math::AsinOp>},
      {"libdevice.acos", unaryOp<math::AcosOp>},
      {"libdevice.atan", unaryOp<math::AtanOp>},
      {"libdevice.sinh", unaryOp<math::SinhOp>},
      {"libdevice.cosh", unaryOp<math::CoshOp>},
      {"libdevice.tan", unaryOp<math::TanOp>},
      {"libdevice.asinh", unaryOp<math::AsinhOp>},
      {"libdevice.acosh", unaryOp<math::AcoshOp>},
      {"libdevice.atanh", unaryOp<math::AtanhOp>},
      {"libdevice.erfc", unaryOp<math::ErfcOp>},
      {"libdevice.expm1", unaryOp<math::ExpM1Op>},
      {"libdevice.log1p", unaryOp<math::Log1pOp>},
      {"libdevice.log10", unaryOp<math::Log10Op>},
      {"libdevice.cbrt", unaryOp<math::CbrtOp>},
      {"libdevice.trunc", unaryOp<math::TruncOp>},
      {"libdevice.round", unaryOp<math::RoundOp>},
      {"libdevice.rint", unaryOp<math::RoundEvenOp>},
  };
  auto it = ops.find(name);
  if (it == ops.end())
    g.fail(loc, "'" + name + "' is not supported");
  auto p = g.bind(args, {"x"}, 1, name, loc);
  TValue x = floatOperand(g, *p[0], name, loc);
  return Val::tensor({it->second(g.b, g.cur, x.value), x.dtype, x.shape});
}

Val abs(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 1, name, loc);
  TValue x = g.toTensor(*p[0], loc);
  if (x.dtype.isFloat())
    return Val::tensor(
        {math::AbsFOp::create(g.b, g.cur, x.value), x.dtype, x.shape});
  if (x.dtype.isSigned())
    return Val::tensor(
        {math::AbsIOp::create(g.b, g.cur, x.value), x.dtype, x.shape});
  if (x.dtype.isInt())
    return Val::tensor(x); // unsigned and bool are their own abs
  g.fail(loc, "tl.abs: unsupported type " + x.dtype.str());
}

Val fma(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "y", "z"}, 3, name, loc);
  auto [x, y] =
      g.checkBinary(*p[0], *p[1], loc, false, false, true, false, "fma");
  auto [x2, z] = g.checkBinary(Val::tensor(x), *p[2], loc, false, false, true,
                               false, "fma");
  std::tie(y, x2) = g.broadcastPair(y, x2, loc);
  y = g.cast(y, x2.dtype, loc);
  if (!x2.dtype.isFloat())
    g.fail(loc,
           "tl.fma expects floating-point operands, got " + x2.dtype.str());
  Value r = math::FmaOp::create(g.b, g.cur, x2.value, y.value, z.value);
  return Val::tensor({r, x2.dtype, x2.shape});
}

Val pow(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "y"}, 2, name, loc);
  auto [x, y] =
      g.checkBinary(*p[0], *p[1], loc, false, false, true, false, "pow");
  if (!x.dtype.isFloat())
    g.fail(loc, "pow expects floating-point operands");
  return Val::tensor(
      {math::PowFOp::create(g.b, g.cur, x.value, y.value), x.dtype, x.shape});
}

Val atan2(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "y"}, 2, name, loc);
  auto [x, y] =
      g.checkBinary(*p[0], *p[1], loc, false, false, true, false, "atan2");
  if (x.dtype.kind != DType::F32 && x.dtype.kind != DType::F64)
    g.fail(loc,
           name + ": expected dtype ['fp32', 'fp64'] but got " + x.dtype.str());
  return Val::tensor(
      {math::Atan2Op::create(g.b, g.cur, x.value, y.value), x.dtype, x.shape});
}

Val sigmoid(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  // 1 / (1 + exp(-x)), as Triton's standard library defines it.
  auto p = g.bind(args, {"x"}, 1, name, loc);
  Val neg = g.unary(UnaryOpKind::Neg, *p[0], loc);
  TValue x = floatOperand(g, neg, name, loc);
  Val e =
      Val::tensor({math::ExpOp::create(g.b, g.cur, x.value), x.dtype, x.shape});
  Val den = g.binary(BinOpKind::Add, Val::integer(1), e, loc);
  return g.binary(BinOpKind::Div, Val::integer(1), den, loc);
}

Val fdiv(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "y", "ieee_rounding"}, 2, name, loc);
  auto [x, y] =
      g.checkBinary(*p[0], *p[1], loc, false, false, true, true, "fdiv");
  if (!x.dtype.isFloat())
    g.fail(loc, name + " expects floating-point operands");
  auto div = arith::DivFOp::create(g.b, g.cur, x.value, y.value);
  // tl.fdiv rounds approximately unless ieee_rounding=True (Triton's
  // default): no IEEE slow path, which ptxas would reach by a call -- and a
  // call in a kernel serializes its wgmmas when nvJitLink assembles it
  // (C7509). tl.div_rn and `/` stay IEEE.
  bool ieee = name == "tl.div_rn" ||
              (p[2] && g.constInt(p[2], "ieee_rounding", loc) != 0);
  if (!ieee)
    div.setFastmath(arith::FastMathFlags::afn);
  return Val::tensor({div, x.dtype, x.shape});
}

Val umulhi(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "y"}, 2, name, loc);
  auto [x, y] =
      g.checkBinary(*p[0], *p[1], loc, false, false, true, false, "umulhi");
  if (!x.dtype.isInt())
    g.fail(loc, "tl.umulhi expects integer operands");
  // The high half of the double-width product, from single-result ops (the
  // per-register lowering of tensor ops takes one result per op).
  unsigned bits = x.dtype.bitWidth();
  Type wideElem = g.b.getIntegerType(2 * bits);
  Type wide = x.shape.empty() ? wideElem
                              : Type(RankedTensorType::get(x.shape, wideElem));
  Value xw = arith::ExtUIOp::create(g.b, g.cur, wide, x.value);
  Value yw = arith::ExtUIOp::create(g.b, g.cur, wide, y.value);
  Value prod = arith::MulIOp::create(g.b, g.cur, xw, yw);
  Value shift = arith::ConstantOp::create(
      g.b, g.cur, wide,
      x.shape.empty() ? TypedAttr(g.b.getIntegerAttr(wideElem, bits))
                      : TypedAttr(DenseElementsAttr::get(
                            llvm::cast<ShapedType>(wide),
                            g.b.getIntegerAttr(wideElem, bits))));
  Value high = arith::ShRUIOp::create(g.b, g.cur, prod, shift);
  Value r = arith::TruncIOp::create(g.b, g.cur, x.value.getType(), high);
  return Val::tensor({r, x.dtype, x.shape});
}

} // namespace handlers

static std::vector<int64_t> dimsArg(Gen &g, const CallArgs &args,
                                    size_t first, SourceLoc loc) {
  // Accepts f(x, 1, 0) and f(x, (1, 0)).
  std::vector<int64_t> dims;
  if (args.pos.size() == first + 1 && args.pos[first].isTuple())
    return g.constShape(args.pos[first], loc);
  for (size_t k = first; k < args.pos.size(); ++k)
    dims.push_back(g.constInt(args.pos[k], "dimension", loc));
  return dims;
}

static TValue trans(Gen &g, const TValue &x, std::vector<int64_t> order,
                    SourceLoc loc) {
  size_t rank = x.shape.size();
  if (order.empty()) {
    // Triton: the last two dims swap (a batched transpose).
    if (rank < 2)
      g.fail(loc, "trans() without dims needs a tensor of rank 2 or more, "
                  "got " +
                      x.typeStr());
    for (size_t d = 0; d < rank; ++d)
      order.push_back(int64_t(d));
    std::swap(order[rank - 2], order[rank - 1]);
  }
  if (order.size() != rank)
    g.fail(loc, "permutation " + shapeStr(order) + " does not match rank " +
                    std::to_string(rank));
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> shape;
  SmallVector<int32_t> ord;
  for (int64_t d : order) {
    if (d < 0)
      d += int64_t(rank);
    if (d < 0 || d >= int64_t(rank) || seen[d])
      g.fail(loc, "invalid permutation " + shapeStr(order));
    seen[d] = true;
    shape.push_back(x.shape[d]);
    ord.push_back(int32_t(d));
  }
  bool identity = true;
  for (size_t k = 0; k < rank; ++k)
    identity &= ord[k] == int32_t(k);
  if (identity)
    return x;
  Value r = ::mlir::txl::TransOp::create(g.b, g.cur, g.mlirType(x.dtype, shape),
                                 x.value, g.b.getDenseI32ArrayAttr(ord));
  return {r, x.dtype, shape};
}

/// A static window of `x` (power-of-two sizes, offsets multiples of them).
static TValue extractSlice(Gen &g, const TValue &x,
                           const std::vector<int64_t> &offsets,
                           const std::vector<int64_t> &shape) {
  Value r = ::mlir::txl::ExtractSliceOp::create(
      g.b, g.cur, g.mlirType(x.dtype, shape), x.value,
      g.b.getDenseI64ArrayAttr(offsets));
  return {r, x.dtype, shape};
}

/// Element `i` of the 1-D `x` as a scalar: a sum in which every other
/// element is replaced by an exact identity (-0.0 for floats, so that a
/// -0.0 element survives; 0 for integers; booleans go through int8).
static TValue elementOf(Gen &g, const TValue &x, int64_t i, SourceLoc loc) {
  if (x.dtype.isBool())
    return g.cast(elementOf(g, g.cast(x, DType::I8, loc), i, loc), DType::I1,
                  loc);
  TValue index = g.makeRange(0, x.shape[0], loc);
  TValue isI = g.toTensor(
      g.compare(CmpOpKind::Eq, Val::tensor(index), Val::integer(i), loc), loc);
  Val identity = x.dtype.isFloat() ? Val::floating(-0.0) : Val::integer(0);
  TValue picked =
      g.where(Val::tensor(isI), Val::tensor(x),
              Val::tensor(g.constant(x.dtype, identity, x.shape)), loc)
          .t;
  return g.reduce({picked}, 0, loc, [&](const std::vector<Val> &args) {
    return std::vector<Val>{g.binary(BinOpKind::Add, args[0], args[1], loc)};
  })[0];
}

/// Triton's epilogue idiom `x.reshape([..., 2, n // 2]).permute(..., -1,
/// -2)`: the source of the reshape, whose last dimension the two halves of
/// a split are; null otherwise.
static Value halvedBySplitIdiom(Value v) {
  auto trans = v.getDefiningOp<::mlir::txl::TransOp>();
  if (!trans)
    return {};
  ArrayRef<int32_t> order = trans.getOrder();
  int32_t rank = int32_t(order.size());
  for (int32_t d = 0; d + 2 < rank; ++d)
    if (order[d] != d)
      return {};
  // A 1-D source keeps the general path: its halves are windows of the
  // [n/2, 2] tensor, where the layout has a second dimension to spare.
  if (rank < 3 || order[rank - 2] != rank - 1 || order[rank - 1] != rank - 2)
    return {};
  auto reshape = trans.getSrc().getDefiningOp<::mlir::txl::ReshapeOp>();
  if (!reshape || reshape.getAllowReorder())
    return {};
  auto src = cast<RankedTensorType>(reshape.getSrc().getType()).getShape();
  auto mid = cast<RankedTensorType>(reshape.getType()).getShape();
  if (int32_t(src.size()) + 1 != rank || mid[rank - 2] != 2 ||
      src[rank - 2] != 2 * mid[rank - 1] ||
      src.take_front(rank - 2) != mid.take_front(rank - 2))
    return {};
  return reshape.getSrc();
}

/// tl.split: the two halves of `x`'s last dimension, which must be 2. The
/// Triton idiom that halves a tile's columns first (halvedBySplitIdiom)
/// becomes two windows of the tile itself, which stay in the tile's layout
/// (no data moves for a wgmma accumulator); otherwise each half is a window
/// of x reshaped to drop the last dimension.
static std::pair<TValue, TValue> split(Gen &g, const TValue &x,
                                       SourceLoc loc) {
  if (!x.isTensor() || x.shape.empty() || x.shape.back() != 2)
    g.fail(loc, "tl.split needs a tensor whose last dimension is 2, got " +
                    shapeStr(x.shape));
  if (Value whole = halvedBySplitIdiom(x.value)) {
    std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 1);
    TValue tile{whole, x.dtype, shape};
    tile.shape.back() *= 2;
    std::vector<int64_t> offsets(shape.size(), 0);
    TValue lo = extractSlice(g, tile, offsets, shape);
    offsets.back() = shape.back();
    return {lo, extractSlice(g, tile, offsets, shape)};
  }
  std::vector<int64_t> window = x.shape;
  window.back() = 1;
  std::vector<int64_t> offsets(window.size(), 0);
  std::vector<int64_t> half(x.shape.begin(), x.shape.end() - 1);
  if (half.empty()) // a 1-D pair splits into two scalars
    return {elementOf(g, x, 0, loc), elementOf(g, x, 1, loc)};
  TValue lo = extractSlice(g, x, offsets, window);
  offsets.back() = 1;
  TValue hi = extractSlice(g, x, offsets, window);
  return {g.reshape(lo, half, false, loc), g.reshape(hi, half, false, loc)};
}

namespace handlers {

Val transPermute(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  for (auto &kw : args.kw)
    if (kw.first != "dims")
      g.fail(loc,
             name + "() got an unexpected keyword argument '" + kw.first + "'");
  if (args.pos.empty())
    g.fail(loc, name + "() missing required argument 'input'");
  TValue x = g.tensorArg(args.pos[0], "input", loc);
  std::vector<int64_t> dims = dimsArg(g, args, 1, loc);
  for (auto &kw : args.kw)
    dims = g.constShape(kw.second, loc);
  if (name == "tl.permute" && dims.empty())
    g.fail(loc, "tl.permute needs dims");
  return Val::tensor(trans(g, x, dims, loc));
}

Val reshapeView(Gen &g, const std::string &name, CallArgs &args,
                SourceLoc loc) {
  bool reorder = false;
  for (auto &kw : args.kw) {
    if (kw.first != "can_reorder")
      g.fail(loc,
             name + "() got an unexpected keyword argument '" + kw.first + "'");
    reorder = kw.second.isConstant() && g.truthy(kw.second, loc);
  }
  if (args.pos.size() < 2)
    g.fail(loc, name + "() needs an input and a shape");
  TValue x = g.tensorArg(args.pos[0], "input", loc);
  std::vector<int64_t> shape = dimsArg(g, args, 1, loc);
  g.validateShape(shape, loc);
  return Val::tensor(g.reshape(x, shape, reorder || name == "tl.view", loc));
}

Val ravel(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "can_reorder"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "x", loc);
  bool reorder = p[1] && p[1]->isConstant() && g.truthy(*p[1], loc);
  return Val::tensor(g.reshape(x, {x.numel()}, reorder, loc));
}

Val expandDims(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "axis"}, 2, name, loc);
  TValue x = g.tensorArg(p[0], "input", loc);
  std::vector<int64_t> axes = g.constShape(*p[1], loc);
  int newRank = int(x.shape.size() + axes.size());
  // Triton's phrases ("invalid axis", "duplicate axes"): its tests match them.
  std::string normalized;
  for (int64_t &a : axes) {
    int64_t given = a;
    if (a < 0)
      a += newRank;
    if (a < 0 || a >= newRank)
      g.fail(loc, "tl.expand_dims: invalid axis " + std::to_string(given) +
                      " for a result of rank " + std::to_string(newRank));
    normalized += (normalized.empty() ? "" : ", ") + std::to_string(a);
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    g.fail(loc, "tl.expand_dims: duplicate axes, normalized axes = [" +
                    normalized + "]");
  for (int64_t a : axes)
    x = g.expandDims(x, int(a), loc);
  return Val::tensor(x);
}

Val broadcastTo(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  if (args.pos.empty())
    g.fail(loc, "tl.broadcast_to needs an input");
  TValue x = g.tensorArg(args.pos[0], "input", loc);
  std::vector<int64_t> shape = dimsArg(g, args, 1, loc);
  for (auto &kw : args.kw) {
    if (kw.first != "shape")
      g.fail(loc, "tl.broadcast_to() got an unexpected keyword argument '" +
                      kw.first + "'");
    shape = g.constShape(kw.second, loc);
  }
  g.validateShape(shape, loc);
  return Val::tensor(g.broadcastTo(x, shape, loc));
}

Val split(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"a"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "a", loc);
  auto [lo, hi] = irgen::split(g, x, loc);
  return Val::tuple({Val::tensor(lo), Val::tensor(hi)});
}

Val broadcast(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "other"}, 2, name, loc);
  auto [x, y] = g.broadcastPair(g.tensorArg(p[0], "input", loc),
                                g.tensorArg(p[1], "other", loc), loc);
  return Val::tuple({Val::tensor(x), Val::tensor(y)});
}

/// tl.flip: `x` reversed along `dim` (the last by default). Reversing a
/// power-of-two axis reverses the bits of the index: the axis is split
/// into log2(n) axes of size 2 and each is swapped with an xor trick
/// (y ^= xor_sum(y, axis, keep_dims)), on the bits of the elements.
Val flip(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "dim"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "x", loc);
  int64_t rank = int64_t(x.shape.size());
  if (rank == 0)
    g.fail(loc, "tl.flip needs a tensor, got a scalar");
  int64_t dim = p[1] && !p[1]->isNone() ? g.constInt(p[1], "dim", loc)
                                        : rank - 1;
  if (dim < -rank || dim >= rank)
    g.fail(loc, "tl.flip: dim " + std::to_string(dim) +
                    " is out of range for a tensor of rank " +
                    std::to_string(rank));
  if (dim < 0)
    dim += rank;
  int64_t n = x.shape[dim];
  if (n == 1)
    return Val::tensor(x);
  int steps = 0;
  while ((int64_t(1) << steps) < n)
    ++steps;
  DType bits = x.dtype.isBool() ? DType(DType::I8)
               : x.dtype.bitWidth() == 64 ? DType(DType::I64)
               : x.dtype.bitWidth() == 32 ? DType(DType::I32)
               : x.dtype.bitWidth() == 16 ? DType(DType::I16)
                                          : DType(DType::I8);
  TValue y = x.dtype.isBool() ? g.cast(x, bits, loc)
                              : g.cast(x, bits, loc, /*bitcast=*/true);
  std::vector<int64_t> split(x.shape.begin(), x.shape.begin() + dim);
  split.insert(split.end(), steps, 2);
  split.insert(split.end(), x.shape.begin() + dim + 1, x.shape.end());
  y = g.reshape(y, split, /*allowReorder=*/false, loc);
  for (int i = 0; i < steps; ++i) {
    CallArgs xs;
    xs.pos = {Val::tensor(y), Val::integer(dim + i)};
    xs.kw = {{"keep_dims", Val::boolean(true)}, {"dtype", Val::dtypeVal(bits)}};
    Val pairXor = sumXorSum(g, "tl.xor_sum", xs, loc);
    y = g.toTensor(g.binary(BinOpKind::BitXor, Val::tensor(y), pairXor, loc),
                   loc);
  }
  y = g.reshape(y, x.shape, /*allowReorder=*/false, loc);
  return Val::tensor(x.dtype.isBool()
                         ? g.cast(y, x.dtype, loc)
                         : g.cast(y, x.dtype, loc, /*bitcast=*/true));
}

/// tl.join: `a` and `b` (broadcast together) stacked along a new last
/// dimension of size 2. Built from element-wise ops: both operands are
/// broadcast along the new dimension and `where(index == 0, a, b)` picks
/// one per position, so every layout the result gets is correct.
static TValue joinValues(Gen &g, const std::string &name,
                         const std::optional<Val> &av,
                         const std::optional<Val> &bv, SourceLoc loc) {
  auto [a, b] = g.broadcastPair(g.tensorArg(av, "a", loc),
                                g.tensorArg(bv, "b", loc), loc);
  if (a.dtype != b.dtype)
    g.fail(loc, name + ": a and b must have the same dtype, got " +
                    a.dtype.str() + " and " + b.dtype.str());
  std::vector<int64_t> shape = a.shape;
  shape.push_back(2);
  g.validateShape(shape, loc);
  int rank = int(a.shape.size());
  auto widen = [&](TValue v) {
    return v.isTensor() ? g.broadcastTo(g.expandDims(v, rank, loc), shape, loc)
                        : g.splat(v, shape);
  };
  TValue index = g.makeRange(0, 2, loc);
  for (int d = 0; d < rank; ++d)
    index = g.expandDims(index, 0, loc);
  index = g.broadcastTo(index, shape, loc);
  Val first =
      g.compare(CmpOpKind::Eq, Val::tensor(index), Val::integer(0), loc);
  return g.where(first, Val::tensor(widen(a)), Val::tensor(widen(b)), loc).t;
}

Val join(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"a", "b"}, 2, name, loc);
  return Val::tensor(joinValues(g, name, p[0], p[1], loc));
}

/// tl.interleave: join, then merge the new dimension into the last one
/// (a0 b0 a1 b1 ...).
Val interleave(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"a", "b"}, 2, name, loc);
  TValue c = joinValues(g, name, p[0], p[1], loc);
  if (c.shape.size() == 1)
    return Val::tensor(c);
  std::vector<int64_t> shape(c.shape.begin(), c.shape.end() - 1);
  shape.back() *= 2;
  return Val::tensor(g.reshape(c, shape, /*allowReorder=*/false, loc));
}

} // namespace handlers

} // namespace txl::irgen
