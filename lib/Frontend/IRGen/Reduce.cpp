//===- Reduce.cpp - Reductions: sum/max/min/argmax/argmin/reduce ----------===//
//
// Every reduction is one `txl.reduce` whose combine region is built by
// running a combine function on the region's scalar block arguments — the
// built-in ones (add, maxnum, argmax's value+index pair) and user `@jit`
// combine functions alike. Dtype rules follow Triton 3.6: sum widens
// sub-32-bit ints to (u)int32; max/min widen sub-32-bit types to
// fp32/int32; argmax/argmin promote bf16 to fp32 and return int32 indices
// with ties resolved to the smallest index.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace mlir;

namespace txl::irgen {

void Gen::buildCombineRegion(
    Region &region, const std::vector<TValue> &srcs, SourceLoc loc,
    const CombineFn &combine,
    const std::function<void(ArrayRef<Value>)> &terminate) {
  SmallVector<Type> argTypes;
  for (int twice = 0; twice < 2; ++twice)
    for (const TValue &s : srcs)
      argTypes.push_back(mlirType(s.dtype));
  Location l = cur;
  SmallVector<Location> locs(argTypes.size(), l);
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&region, {}, argTypes, locs);
  std::vector<Val> args;
  for (size_t k = 0; k < argTypes.size(); ++k)
    args.push_back(Val::tensor(
        {block->getArgument(k), srcs[k % srcs.size()].dtype, {}}));
  std::vector<Val> results = combine(args);
  if (results.size() != srcs.size())
    fail(loc, "the combine function must return " +
                  std::to_string(srcs.size()) + " value(s), got " +
                  std::to_string(results.size()));
  SmallVector<Value> yielded;
  for (size_t k = 0; k < results.size(); ++k) {
    if (!results[k].isNumber() && !results[k].isTensor())
      fail(loc, "the combine function must return scalars, got " +
                    results[k].kindName());
    TValue r = results[k].isNumber() ? constant(srcs[k].dtype, results[k])
                                     : toTensor(results[k], loc);
    if (r.isTensor())
      fail(loc, "the combine function must return scalars, got " +
                    r.typeStr());
    if (r.dtype != srcs[k].dtype)
      fail(loc, "the combine function returns " + r.dtype.str() +
                    " for an operand of type " + srcs[k].dtype.str());
    yielded.push_back(r.value);
  }
  terminate(yielded);
}

std::vector<TValue> Gen::reduce(const std::vector<TValue> &srcs, int axis,
                                SourceLoc loc, const CombineFn &combine) {
  std::vector<int64_t> outShape = srcs[0].shape;
  outShape.erase(outShape.begin() + axis);
  SmallVector<Type> resultTypes;
  SmallVector<Value> operands;
  for (const TValue &s : srcs) {
    resultTypes.push_back(mlirType(s.dtype, outShape));
    operands.push_back(s.value);
  }
  Location l = cur;
  auto op = ::mlir::txl::ReduceOp::create(b, l, resultTypes, operands,
                                          b.getI32IntegerAttr(axis));
  lastReduce = op;
  buildCombineRegion(op.getCombineOp(), srcs, loc, combine,
                     [&](ArrayRef<Value> yielded) {
                       ::mlir::txl::ReduceReturnOp::create(b, l, yielded);
                     });
  std::vector<TValue> out;
  for (size_t k = 0; k < srcs.size(); ++k)
    out.push_back({op.getResult(k), srcs[k].dtype, outShape});
  return out;
}

DType Gen::pickSumDType(DType in, const std::optional<Val> &dtype,
                        SourceLoc loc) {
  if (dtype && !dtype->isNone())
    return constDType(dtype, "dtype", loc);
  if (in.isSigned() && in.bitWidth() < 32)
    return DType::I32;
  if ((in.isUnsigned() || in.isBool()) && in.bitWidth() < 32)
    return DType::U32;
  return in;
}

namespace {
/// Input, normalized axis and keep_dims of one reduction call.
struct ReduceArgs {
  TValue input;
  int axis = 0;
  bool keepDims = false;
  bool flattened = false; ///< axis=None
};
} // namespace

static ReduceArgs prepare(Gen &g, const std::optional<Val> &input,
                          const std::optional<Val> &axis,
                          const std::optional<Val> &keepDims, bool reorder,
                          SourceLoc loc) {
  ReduceArgs r;
  r.input = g.tensorArg(input, "input", loc);
  if (!r.input.isTensor())
    g.fail(loc, "cannot reduce a scalar");
  r.keepDims = keepDims && keepDims->isConstant() && g.truthy(*keepDims, loc);
  if (!axis || axis->isNone()) {
    r.flattened = true;
    r.input = g.reshape(r.input, {r.input.numel()}, reorder, loc);
    return r;
  }
  int64_t a = g.constInt(axis, "axis", loc);
  int64_t rank = int64_t(r.input.shape.size());
  if (a < -rank || a >= rank)
    g.fail(loc, "reduction axis " + std::to_string(a) +
                    " is out of range for a tensor of rank " +
                    std::to_string(rank));
  r.axis = int(a < 0 ? a + rank : a);
  return r;
}

static TValue finish(Gen &g, const ReduceArgs &r, TValue v,
                     const std::vector<int64_t> &origShape, SourceLoc loc) {
  if (!r.keepDims)
    return v;
  if (r.flattened) {
    std::vector<int64_t> ones(origShape.size(), 1);
    return g.reshape(v, ones, false, loc);
  }
  return g.expandDims(v, r.axis, loc);
}

/// Index tensor along `axis` broadcast to `shape`.
static TValue indices(Gen &g, const std::vector<int64_t> &shape, int axis,
                      SourceLoc loc) {
  TValue idx = g.makeRange(0, shape[axis], loc);
  for (int k = 0; k < int(shape.size()); ++k)
    if (k != axis)
      idx = g.expandDims(idx, k, loc);
  return g.broadcastTo(idx, shape, loc);
}

namespace handlers {

Val sumXorSum(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "axis", "keep_dims", "dtype"}, 1, name, loc);
  std::optional<Val> orig = p[0];
  ReduceArgs r = prepare(g, p[0], p[1], p[2], true, loc);
  bool isXor = name == "tl.xor_sum";
  DType d = isXor && (!p[3] || p[3]->isNone())
                ? r.input.dtype
                : g.pickSumDType(r.input.dtype, p[3], loc);
  if (isXor && !d.isInt())
    g.fail(loc, "xor_sum is only supported for integers");
  r.input = g.cast(r.input, d, loc);
  BinOpKind op = isXor ? BinOpKind::BitXor : BinOpKind::Add;
  auto out = g.reduce({r.input}, r.axis, loc, [&](const std::vector<Val> &a) {
    return std::vector<Val>{g.binary(op, a[0], a[1], loc)};
  });
  return Val::tensor(finish(g, r, out[0], orig->t.shape, loc));
}

/// tl.reduce_or: bitwise or of integers (bool included) along `axis`, in
/// the input's type (Triton 3.6 does not widen).
Val reduceOr(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "axis", "keep_dims"}, 2, name, loc);
  std::optional<Val> orig = p[0];
  ReduceArgs r = prepare(g, p[0], p[1], p[2], true, loc);
  if (!r.input.dtype.isInt())
    g.fail(loc,
           "reduce_or only supported for integers, got " + r.input.dtype.str());
  auto out = g.reduce({r.input}, r.axis, loc, [&](const std::vector<Val> &a) {
    return std::vector<Val>{g.binary(BinOpKind::BitOr, a[0], a[1], loc)};
  });
  return Val::tensor(finish(g, r, out[0], orig->t.shape, loc));
}

Val maxMinArg(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  bool isMax = name == "tl.max" || name == "tl.argmax";
  bool isArg = name == "tl.argmax" || name == "tl.argmin";
  std::vector<std::optional<Val>> p;
  std::optional<Val> keep;
  bool withIndices = isArg, tieLeft = true;
  if (isArg) {
    p = g.bind(args, {"input", "axis", "tie_break_left", "keep_dims"}, 2, name,
               loc);
    if (p[2])
      tieLeft = p[2]->isConstant() && g.truthy(*p[2], loc);
    keep = p[3];
  } else {
    p = g.bind(args,
               {"input", "axis", "return_indices",
                "return_indices_tie_break_left", "keep_dims"},
               1, name, loc);
    withIndices = p[2] && p[2]->isConstant() && g.truthy(*p[2], loc);
    if (p[3])
      tieLeft = p[3]->isConstant() && g.truthy(*p[3], loc);
    keep = p[4];
  }
  std::vector<int64_t> origShape = g.tensorArg(p[0], "input", loc).shape;
  ReduceArgs r = prepare(g, p[0], p[1], keep, !withIndices, loc);
  if (r.input.dtype.kind == DType::BF16)
    r.input = g.cast(r.input, DType::F32, loc);
  if (!withIndices) {
    if (r.input.dtype.bitWidth() < 32)
      r.input = g.cast(
          r.input,
          r.input.dtype.isFloat() ? DType(DType::F32) : DType(DType::I32), loc);
    auto out = g.reduce({r.input}, r.axis, loc, [&](const std::vector<Val> &a) {
      return std::vector<Val>{g.minMax(isMax, a[0], a[1], loc)};
    });
    return Val::tensor(finish(g, r, out[0], origShape, loc));
  }
  TValue idx = indices(g, r.input.shape, r.axis, loc);
  auto out =
      g.reduce({r.input, idx}, r.axis, loc, [&](const std::vector<Val> &a) {
        const Val &v1 = a[0], &i1 = a[1], &v2 = a[2], &i2 = a[3];
        Val better =
            g.compare(isMax ? CmpOpKind::Gt : CmpOpKind::Lt, v1, v2, loc);
        if (tieLeft) {
          Val tie = g.logical(true, g.compare(CmpOpKind::Eq, v1, v2, loc),
                              g.compare(CmpOpKind::Lt, i1, i2, loc), loc);
          better = g.logical(false, better, tie, loc);
        }
        return std::vector<Val>{g.where(better, v1, v2, loc),
                                g.where(better, i1, i2, loc)};
      });
  TValue value = finish(g, r, out[0], origShape, loc);
  TValue index = finish(g, r, out[1], origShape, loc);
  if (isArg)
    return Val::tensor(index);
  return Val::tuple({Val::tensor(value), Val::tensor(index)});
}

Val reduce(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p =
      g.bind(args, {"input", "axis", "combine_fn", "keep_dims"}, 3, name, loc);
  if (p[2]->kind != Val::Kind::Function)
    g.fail(loc, "tl.reduce: combine_fn must be a @jit function");
  std::vector<Val> inputs =
      p[0]->isTuple() ? p[0]->elts : std::vector<Val>{*p[0]};
  if (inputs.empty())
    g.fail(loc, "tl.reduce needs at least one input");
  std::vector<TValue> srcs;
  std::vector<int64_t> origShape;
  ReduceArgs r;
  for (const Val &in : inputs) {
    ReduceArgs ri = prepare(g, in, p[1], p[3], false, loc);
    if (!srcs.empty() && ri.input.shape != srcs[0].shape)
      g.fail(loc, "tl.reduce inputs must have the same shape");
    if (srcs.empty())
      origShape = in.t.shape;
    srcs.push_back(ri.input);
    r = ri;
  }
  Val fn = *p[2];
  auto out = g.reduce(srcs, r.axis, loc, [&](const std::vector<Val> &a) {
    Val res = g.callWithValues(fn, a, loc);
    return res.isTuple() ? res.elts : std::vector<Val>{res};
  });
  std::vector<Val> vals;
  for (TValue &t : out)
    vals.push_back(Val::tensor(finish(g, r, t, origShape, loc)));
  if (!p[0]->isTuple())
    return vals[0];
  return Val::tuple(std::move(vals));
}

Val softmax(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p =
      g.bind(args, {"x", "dim", "keep_dims", "ieee_rounding"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "x", loc);
  int64_t dim = p[1] && !p[1]->isNone() ? g.constInt(p[1], "dim", loc)
                                        : int64_t(x.shape.size()) - 1;
  CallArgs ma;
  ma.pos = {Val::tensor(x), Val::integer(dim)};
  ma.kw = {{"keep_dims", Val::boolean(true)}};
  Val mx = g.callBuiltin("tl.max", ma, loc);
  Val z = g.binary(BinOpKind::Sub, Val::tensor(x), mx, loc);
  CallArgs ea;
  ea.pos = {z};
  Val num = g.callBuiltin("tl.exp", ea, loc);
  CallArgs sa;
  sa.pos = {num, Val::integer(dim)};
  sa.kw = {{"keep_dims", Val::boolean(true)}};
  Val den = g.callBuiltin("tl.sum", sa, loc);
  return g.binary(BinOpKind::Div, num, den, loc);
}

} // namespace handlers

} // namespace txl::irgen
