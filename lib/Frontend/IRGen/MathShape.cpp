//===- MathShape.cpp - tl math functions and shape manipulation -----------===//
#include "Gen.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

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

Val Gen::callMathBuiltin(const std::string &name, CallArgs &args,
                         SourceLoc loc, bool &handled) {
  handled = true;
  auto unaryF = [&](auto makeOp) -> Val {
    auto p = bind(args, {"x"}, 1, name, loc);
    TValue x = floatOperand(*this, *p[0], name, loc);
    Value r = makeOp(x.value);
    return Val::tensor({r, x.dtype, x.shape});
  };
  if (name == "tl.exp")
    return unaryF([&](Value x) { return math::ExpOp::create(b, cur, x); });
  if (name == "tl.exp2")
    return unaryF([&](Value x) { return math::Exp2Op::create(b, cur, x); });
  if (name == "tl.log")
    return unaryF([&](Value x) { return math::LogOp::create(b, cur, x); });
  if (name == "tl.log2")
    return unaryF([&](Value x) { return math::Log2Op::create(b, cur, x); });
  if (name == "tl.sqrt" || name == "tl.sqrt_rn")
    return unaryF([&](Value x) { return math::SqrtOp::create(b, cur, x); });
  if (name == "tl.rsqrt")
    return unaryF([&](Value x) { return math::RsqrtOp::create(b, cur, x); });
  if (name == "tl.sin")
    return unaryF([&](Value x) { return math::SinOp::create(b, cur, x); });
  if (name == "tl.cos")
    return unaryF([&](Value x) { return math::CosOp::create(b, cur, x); });
  if (name == "tl.erf")
    return unaryF([&](Value x) { return math::ErfOp::create(b, cur, x); });
  if (name == "tl.floor")
    return unaryF([&](Value x) { return math::FloorOp::create(b, cur, x); });
  if (name == "tl.ceil")
    return unaryF([&](Value x) { return math::CeilOp::create(b, cur, x); });
  if (name == "tl.tanh")
    return unaryF([&](Value x) { return math::TanhOp::create(b, cur, x); });
  if (name == "tl.abs") {
    auto p = bind(args, {"x"}, 1, name, loc);
    TValue x = toTensor(*p[0], loc);
    if (x.dtype.isFloat())
      return Val::tensor(
          {math::AbsFOp::create(b, cur, x.value), x.dtype, x.shape});
    if (x.dtype.isSigned())
      return Val::tensor(
          {math::AbsIOp::create(b, cur, x.value), x.dtype, x.shape});
    if (x.dtype.isInt())
      return Val::tensor(x); // unsigned and bool are their own abs
    fail(loc, "tl.abs: unsupported type " + x.dtype.str());
  }
  if (name == "tl.fma") {
    auto p = bind(args, {"x", "y", "z"}, 3, name, loc);
    auto [x, y] = checkBinary(*p[0], *p[1], loc, false, false, true, false,
                              "fma");
    auto [x2, z] = checkBinary(Val::tensor(x), *p[2], loc, false, false, true,
                               false, "fma");
    std::tie(y, x2) = broadcastPair(y, x2, loc);
    y = cast(y, x2.dtype, loc);
    if (!x2.dtype.isFloat())
      fail(loc, "tl.fma expects floating-point operands, got " +
                    x2.dtype.str());
    Value r = math::FmaOp::create(b, cur, x2.value, y.value, z.value);
    return Val::tensor({r, x2.dtype, x2.shape});
  }
  if (name == "tl.pow") {
    auto p = bind(args, {"x", "y"}, 2, name, loc);
    auto [x, y] = checkBinary(*p[0], *p[1], loc, false, false, true, false,
                              "pow");
    if (!x.dtype.isFloat())
      fail(loc, "pow expects floating-point operands");
    return Val::tensor(
        {math::PowFOp::create(b, cur, x.value, y.value), x.dtype, x.shape});
  }
  if (name == "tl.sigmoid") {
    // 1 / (1 + exp(-x)), as Triton's standard library defines it.
    auto p = bind(args, {"x"}, 1, name, loc);
    Val neg = unary(UnaryOpKind::Neg, *p[0], loc);
    TValue x = floatOperand(*this, neg, name, loc);
    Val e = Val::tensor({math::ExpOp::create(b, cur, x.value), x.dtype,
                         x.shape});
    Val den = binary(BinOpKind::Add, Val::integer(1), e, loc);
    return binary(BinOpKind::Div, Val::integer(1), den, loc);
  }
  if (name == "tl.fdiv" || name == "tl.div_rn") {
    auto p = bind(args, {"x", "y", "ieee_rounding"}, 2, name, loc);
    auto [x, y] = checkBinary(*p[0], *p[1], loc, false, false, true, true,
                              "fdiv");
    if (!x.dtype.isFloat())
      fail(loc, name + " expects floating-point operands");
    auto div = arith::DivFOp::create(b, cur, x.value, y.value);
    // tl.fdiv rounds approximately unless ieee_rounding=True (Triton's
    // default): no IEEE slow path, which ptxas would reach by a call --
    // and a call in a kernel serializes its wgmmas when nvJitLink
    // assembles it (C7509). tl.div_rn and `/` stay IEEE.
    bool ieee = name == "tl.div_rn" ||
                (p[2] && constInt(p[2], "ieee_rounding", loc) != 0);
    if (!ieee)
      div.setFastmath(arith::FastMathFlags::afn);
    return Val::tensor({div, x.dtype, x.shape});
  }
  if (name == "tl.umulhi") {
    auto p = bind(args, {"x", "y"}, 2, name, loc);
    auto [x, y] = checkBinary(*p[0], *p[1], loc, false, false, true, false,
                              "umulhi");
    if (!x.dtype.isInt())
      fail(loc, "tl.umulhi expects integer operands");
    auto op = arith::MulUIExtendedOp::create(b, cur, x.value, y.value);
    return Val::tensor({op.getHigh(), x.dtype, x.shape});
  }
  handled = false;
  return Val();
}

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
    if (rank != 2)
      g.fail(loc, "trans() without dims needs a 2-D tensor, got " +
                      x.typeStr());
    order = {1, 0};
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
  if (half.empty())
    g.fail(loc, "tl.split of a 1-D tensor of 2 elements is not supported");
  TValue lo = extractSlice(g, x, offsets, window);
  offsets.back() = 1;
  TValue hi = extractSlice(g, x, offsets, window);
  return {g.reshape(lo, half, false, loc), g.reshape(hi, half, false, loc)};
}

Val Gen::callShapeBuiltin(const std::string &name, CallArgs &args,
                          SourceLoc loc, bool &handled) {
  handled = true;
  if (name == "tl.trans" || name == "tl.permute") {
    for (auto &kw : args.kw)
      if (kw.first != "dims")
        fail(loc, name + "() got an unexpected keyword argument '" +
                      kw.first + "'");
    if (args.pos.empty())
      fail(loc, name + "() missing required argument 'input'");
    TValue x = tensorArg(args.pos[0], "input", loc);
    std::vector<int64_t> dims = dimsArg(*this, args, 1, loc);
    for (auto &kw : args.kw)
      dims = constShape(kw.second, loc);
    if (name == "tl.permute" && dims.empty())
      fail(loc, "tl.permute needs dims");
    return Val::tensor(trans(*this, x, dims, loc));
  }
  if (name == "tl.reshape" || name == "tl.view") {
    bool reorder = false;
    for (auto &kw : args.kw) {
      if (kw.first != "can_reorder")
        fail(loc, name + "() got an unexpected keyword argument '" +
                      kw.first + "'");
      reorder = kw.second.isConstant() && truthy(kw.second, loc);
    }
    if (args.pos.size() < 2)
      fail(loc, name + "() needs an input and a shape");
    TValue x = tensorArg(args.pos[0], "input", loc);
    std::vector<int64_t> shape = dimsArg(*this, args, 1, loc);
    validateShape(shape, loc);
    return Val::tensor(reshape(x, shape, reorder || name == "tl.view", loc));
  }
  if (name == "tl.ravel") {
    auto p = bind(args, {"x", "can_reorder"}, 1, name, loc);
    TValue x = tensorArg(p[0], "x", loc);
    bool reorder = p[1] && p[1]->isConstant() && truthy(*p[1], loc);
    return Val::tensor(reshape(x, {x.numel()}, reorder, loc));
  }
  if (name == "tl.expand_dims") {
    auto p = bind(args, {"input", "axis"}, 2, name, loc);
    TValue x = tensorArg(p[0], "input", loc);
    std::vector<int64_t> axes = constShape(*p[1], loc);
    int newRank = int(x.shape.size() + axes.size());
    for (int64_t &a : axes) {
      if (a < 0)
        a += newRank;
      if (a < 0 || a >= newRank)
        fail(loc, "expand_dims axis out of range");
    }
    std::sort(axes.begin(), axes.end());
    for (int64_t a : axes)
      x = expandDims(x, int(a), loc);
    return Val::tensor(x);
  }
  if (name == "tl.broadcast_to") {
    if (args.pos.empty())
      fail(loc, "tl.broadcast_to needs an input");
    TValue x = tensorArg(args.pos[0], "input", loc);
    std::vector<int64_t> shape = dimsArg(*this, args, 1, loc);
    for (auto &kw : args.kw) {
      if (kw.first != "shape")
        fail(loc, "tl.broadcast_to() got an unexpected keyword argument '" +
                      kw.first + "'");
      shape = constShape(kw.second, loc);
    }
    validateShape(shape, loc);
    return Val::tensor(broadcastTo(x, shape, loc));
  }
  if (name == "tl.split") {
    auto p = bind(args, {"a"}, 1, name, loc);
    TValue x = tensorArg(p[0], "a", loc);
    auto [lo, hi] = split(*this, x, loc);
    return Val::tuple({Val::tensor(lo), Val::tensor(hi)});
  }
  if (name == "tl.broadcast") {
    auto p = bind(args, {"input", "other"}, 2, name, loc);
    auto [x, y] = broadcastPair(tensorArg(p[0], "input", loc),
                                tensorArg(p[1], "other", loc), loc);
    return Val::tuple({Val::tensor(x), Val::tensor(y)});
  }
  handled = false;
  return Val();
}

} // namespace txl::irgen
