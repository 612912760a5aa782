//===- Scan.cpp - Scans (associative_scan, cumsum, cumprod), histogram ----===//
//
// Every scan is one `txl.scan` whose combine region is built like a
// reduction's (Gen::buildCombineRegion): by running the combine function on
// the region's scalar arguments. Triton 3.6's rules: the axis is a
// compile-time integer in [-rank, rank); cumsum and cumprod promote bf16 to
// fp32, cumsum also widens sub-32-bit integers (bool included) to (u)int32
// unless `dtype` is given; fp16 stays fp16.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace mlir;

namespace txl::irgen {

std::vector<TValue> Gen::scan(const std::vector<TValue> &srcs, int axis,
                              bool reverse, SourceLoc loc,
                              const CombineFn &combine) {
  SmallVector<Type> resultTypes;
  SmallVector<Value> operands;
  for (const TValue &s : srcs) {
    resultTypes.push_back(s.value.getType());
    operands.push_back(s.value);
  }
  Location l = cur;
  auto op = ::mlir::txl::ScanOp::create(b, l, resultTypes, operands,
                                        b.getI32IntegerAttr(axis),
                                        reverse ? b.getUnitAttr() : nullptr);
  buildCombineRegion(op.getCombineOp(), srcs, loc, combine,
                     [&](ArrayRef<Value> yielded) {
                       ::mlir::txl::ScanReturnOp::create(b, l, yielded);
                     });
  std::vector<TValue> out;
  for (size_t k = 0; k < srcs.size(); ++k)
    out.push_back({op.getResult(k), srcs[k].dtype, srcs[k].shape});
  return out;
}

/// The scan's inputs (one tensor or a tuple of tensors of one shape) and
/// its normalized axis.
static std::vector<TValue> scanInputs(Gen &g, const Val &input,
                                      const std::optional<Val> &axisArg,
                                      const std::string &name, int &axis,
                                      SourceLoc loc) {
  std::vector<Val> elts =
      input.isTuple() ? input.elts : std::vector<Val>{input};
  if (elts.empty())
    g.fail(loc, name + " needs at least one input");
  std::vector<TValue> srcs;
  for (const Val &e : elts) {
    TValue t = g.tensorArg(e, "input", loc);
    if (!t.isTensor())
      g.fail(loc, name + ": cannot scan a scalar");
    if (!srcs.empty() && t.shape != srcs[0].shape)
      g.fail(loc, name + ": all inputs must have the same shape, got " +
                      srcs[0].typeStr() + " and " + t.typeStr());
    srcs.push_back(t);
  }
  if (!axisArg || axisArg->isNone())
    g.fail(loc, name + ": axis must be an integer, got None");
  int64_t a = g.constInt(axisArg, "axis", loc);
  int64_t rank = int64_t(srcs[0].shape.size());
  if (a < -rank || a >= rank)
    g.fail(loc, name + ": invalid axis " + std::to_string(a) + ". Expected " +
                    std::to_string(-rank) + " <= axis < " +
                    std::to_string(rank));
  axis = int(a < 0 ? a + rank : a);
  return srcs;
}

static bool reverseArg(Gen &g, const std::optional<Val> &v, SourceLoc loc) {
  if (!v || v->isNone())
    return false;
  if (!v->isConstant())
    g.fail(loc, "reverse must be a compile-time bool");
  return g.truthy(*v, loc);
}

namespace handlers {

Val associativeScan(Gen &g, const std::string &name, CallArgs &args,
                    SourceLoc loc) {
  auto p =
      g.bind(args, {"input", "axis", "combine_fn", "reverse"}, 3, name, loc);
  if (p[2]->kind != Val::Kind::Function)
    g.fail(loc, "tl.associative_scan: combine_fn must be a @jit function, "
                "got " +
                    p[2]->kindName());
  int axis = 0;
  std::vector<TValue> srcs =
      scanInputs(g, *p[0], p[1], "tl.associative_scan", axis, loc);
  Val fn = *p[2];
  auto out = g.scan(srcs, axis, reverseArg(g, p[3], loc), loc,
                    [&](const std::vector<Val> &a) {
                      Val res = g.callWithValues(fn, a, loc);
                      return res.isTuple() ? res.elts : std::vector<Val>{res};
                    });
  if (!p[0]->isTuple())
    return Val::tensor(out[0]);
  std::vector<Val> vals;
  for (TValue &t : out)
    vals.push_back(Val::tensor(t));
  return Val::tuple(std::move(vals));
}

Val cumsumCumprod(Gen &g, const std::string &name, CallArgs &args,
                  SourceLoc loc) {
  bool isSum = name == "tl.cumsum";
  std::vector<const char *> params = {"input", "axis", "reverse"};
  if (isSum)
    params.push_back("dtype");
  auto p = g.bind(args, params, 1, name, loc);
  std::optional<Val> axisArg = p[1] ? p[1] : Val::integer(0);
  int axis = 0;
  if (p[0]->isTuple())
    g.fail(loc, name + " takes one tensor, got a tuple");
  TValue x = scanInputs(g, *p[0], axisArg, name, axis, loc)[0];
  if (x.dtype.kind == DType::BF16)
    x = g.cast(x, DType::F32, loc);
  if (isSum)
    x = g.cast(x, g.pickSumDType(x.dtype, p[3], loc), loc);
  BinOpKind op = isSum ? BinOpKind::Add : BinOpKind::Mul;
  auto out = g.scan({x}, axis, reverseArg(g, p[2], loc), loc,
                    [&](const std::vector<Val> &a) {
                      return std::vector<Val>{g.binary(op, a[0], a[1], loc)};
                    });
  return Val::tensor(out[0]);
}

/// tl.histogram(input, num_bins, mask=None): int32 counts of a 1-D integer
/// tensor (txl.histogram says which bin a value lands in).
Val histogram(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "num_bins", "mask"}, 2, name, loc);
  TValue x = g.tensorArg(p[0], "input", loc);
  if (x.shape.size() != 1)
    g.fail(loc, "tl.histogram only supports 1-D input, got " + x.typeStr());
  if (!x.dtype.isInt())
    g.fail(loc, "tl.histogram only supports integer input, got " + x.typeStr());
  int64_t bins = g.constInt(p[1], "num_bins", loc);
  // The counts live in shared memory while they are made.
  constexpr int64_t kMaxBins = 16384;
  if (bins < 1 || bins > kMaxBins)
    g.fail(loc, "tl.histogram: num_bins must be in [1, " +
                    std::to_string(kMaxBins) + "], got " +
                    std::to_string(bins));
  g.validateShape({bins}, loc);
  Value mask;
  if (p[2] && !p[2]->isNone()) {
    TValue m = g.toTensor(*p[2], loc);
    if (!m.dtype.isBool())
      g.fail(loc, "tl.histogram: mask must have boolean scalar type, got " +
                      m.typeStr());
    m = m.isTensor() ? g.broadcastTo(m, x.shape, loc) : g.splat(m, x.shape);
    mask = m.value;
  }
  // Bins come from the low bits of the value as an int32 (sign- or
  // zero-extended by the input's signedness, truncated from 64 bits).
  if (x.dtype.bitWidth() != 32)
    x = g.cast(x, x.dtype.isUnsigned() ? DType(DType::U32) : DType(DType::I32),
               loc);
  Value h = ::mlir::txl::HistogramOp::create(
      g.b, g.cur, g.mlirType(DType::I32, {bins}), x.value, mask);
  return Val::tensor({h, DType::I32, {bins}});
}

} // namespace handlers

} // namespace txl::irgen
