//===- Sort.cpp - tl.sort, tl.topk, tl.bitonic_merge ----------------------===//
//
// Bitonic networks built from tile operations, as Triton 3.6 builds them:
// the tile becomes a hypercube of size-2 axes (index bit i of the sorted,
// last dimension is the i-th innermost axis), and a compare-and-swap along
// bit i pairs each element with its partner across that axis -- found with
// the xor trick (bits ^ xor_sum(bits, axis, keep_dims)) -- keeping the
// smaller or the larger by the element's side and the stage's direction.
// top-k runs the first log2(k) stages, then halves the cube with max (or
// min) over the axis above the sorted runs and re-merges, log2(n/k) times.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

namespace txl::irgen {

namespace {

int log2Exact(int64_t n) {
  int l = 0;
  while ((int64_t(1) << l) < n)
    ++l;
  return l;
}

/// The bitonic network on one hypercube tensor (every axis of size 2).
struct Hypercube {
  Gen &g;
  SourceLoc loc;

  int rank(const TValue &h) const { return int(h.shape.size()); }

  /// 0 on the left, 1 on the right of the j-th innermost axis (int32,
  /// broadcastable against the cube).
  Val indicator(int nDims, int j) {
    TValue ar = g.makeRange(0, 2, loc);
    std::vector<int64_t> shape(nDims, 1);
    shape[nDims - 1 - j] = 2;
    return Val::tensor(g.reshape(ar, shape, /*allowReorder=*/false, loc));
  }

  /// The integer type whose bits carry an element of `d` through xor_sum.
  static DType bitsType(DType d) {
    int w = d.isBool() ? 8 : d.bitWidth();
    return w == 64   ? DType(DType::I64)
           : w == 32 ? DType(DType::I32)
           : w == 16 ? DType(DType::I16)
                     : DType(DType::I8);
  }

  /// Compare-and-swap along the i-th innermost axis; `flip` (a constant or
  /// an indicator) reverses the direction where it is 1.
  TValue compareAndSwap(const TValue &x, const Val &flip, int i) {
    DType bits = bitsType(x.dtype);
    TValue ix = x.dtype.isBool() ? g.cast(x, bits, loc)
                                 : g.cast(x, bits, loc, /*bitcast=*/true);
    CallArgs xs;
    xs.pos = {Val::tensor(ix), Val::integer(rank(x) - 1 - i)};
    xs.kw = {{"keep_dims", Val::boolean(true)}, {"dtype", Val::dtypeVal(bits)}};
    Val pairXor = g.callBuiltin("tl.xor_sum", xs, loc);
    TValue iy = g.toTensor(
        g.binary(BinOpKind::BitXor, Val::tensor(ix), pairXor, loc), loc);
    TValue y = x.dtype.isBool() ? g.cast(iy, x.dtype, loc)
                                : g.cast(iy, x.dtype, loc, /*bitcast=*/true);
    Val isRight = indicator(rank(x), i);
    Val greater = g.compare(CmpOpKind::Gt, Val::tensor(x), Val::tensor(y), loc);
    Val side = g.binary(BinOpKind::BitXor, flip, isRight, loc);
    Val swap = g.compare(CmpOpKind::NotEq, greater, side, loc);
    return g.toTensor(g.where(swap, Val::tensor(y), Val::tensor(x), loc), loc);
  }

  /// order: 0 ascending, 1 descending, 2 alternating by the axis above the
  /// `stage` merged ones.
  TValue merge(TValue h, int stage, int order) {
    Val flip = order == 2 ? indicator(rank(h), stage) : Val::integer(order);
    for (int i = 0; i < stage; ++i)
      h = compareAndSwap(h, flip, stage - 1 - i);
    return h;
  }
};

/// The sorted dimension: the last; `dim` may name it (also negatively).
void checkDim(Gen &g, const TValue &x, const std::optional<Val> &dim,
              const std::string &name, SourceLoc loc) {
  int64_t rank = int64_t(x.shape.size());
  if (rank == 0)
    g.fail(loc, name + " needs a tensor, got a scalar");
  if (!dim || dim->isNone())
    return;
  int64_t d = g.constInt(dim, "dim", loc);
  if (d != rank - 1 && d != -1)
    g.fail(loc, name +
                    ": only the minor (last) dimension is supported, got "
                    "dim=" +
                    std::to_string(d) + " for a tensor of rank " +
                    std::to_string(rank));
}

bool descendingArg(Gen &g, const std::optional<Val> &v, bool dflt,
                   SourceLoc loc) {
  if (!v || v->isNone())
    return dflt;
  if (!v->isConstant())
    g.fail(loc, "descending must be a compile-time bool");
  return g.truthy(*v, loc);
}

/// Sorts the last dimension of `x` and keeps its first k (k = n: sort).
TValue sortImpl(Gen &g, TValue x, int64_t k, bool descending, SourceLoc loc) {
  int logN = log2Exact(x.shape.back());
  int logK = log2Exact(k);
  int nDims = log2Exact(x.numel());
  Hypercube cube{g, loc};
  std::vector<int64_t> cubeShape =
      nDims ? std::vector<int64_t>(nDims, 2) : std::vector<int64_t>{1};
  TValue h = g.reshape(x, cubeShape, /*allowReorder=*/false, loc);
  for (int i = 1; i <= logK; ++i)
    h = cube.merge(h, i, i < logN ? 2 : int(descending));
  for (int i = logK + 1; i <= logN; ++i) {
    CallArgs ra;
    ra.pos = {Val::tensor(h), Val::integer(int64_t(h.shape.size()) - 1 - logK)};
    h = g.toTensor(g.callBuiltin(descending ? "tl.max" : "tl.min", ra, loc),
                   loc);
    h = cube.merge(h, logK, i < logN ? 2 : int(descending));
  }
  std::vector<int64_t> out(x.shape.begin(), x.shape.end() - 1);
  out.push_back(int64_t(1) << logK);
  return g.reshape(h, out, /*allowReorder=*/false, loc);
}

} // namespace

namespace handlers {

Val sortTopk(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  bool isTopk = name == "tl.topk";
  auto p = isTopk ? g.bind(args, {"x", "k", "dim"}, 2, name, loc)
                  : g.bind(args, {"x", "dim", "descending"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "x", loc);
  checkDim(g, x, isTopk ? p[2] : p[1], name, loc);
  int64_t n = x.shape.back();
  int64_t k = n;
  if (isTopk) {
    k = g.constInt(p[1], "k", loc);
    if (k < 1 || k > n || (k & (k - 1)))
      g.fail(loc, "tl.topk: k must be a power of two in [1, " +
                      std::to_string(n) + "], got " + std::to_string(k));
  }
  bool descending = isTopk || descendingArg(g, p[2], false, loc);
  // As in Triton, top-k's halving goes through tl.max/tl.min, which widen
  // sub-32-bit types (and bf16) to 32 bits: so does the result when k < n.
  return Val::tensor(sortImpl(g, x, k, descending, loc));
}

Val bitonicMerge(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  auto p = g.bind(args, {"x", "dim", "descending"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "x", loc);
  checkDim(g, x, p[1], name, loc);
  bool descending = descendingArg(g, p[2], false, loc);
  int stage = log2Exact(x.shape.back());
  int nDims = log2Exact(x.numel());
  Hypercube cube{g, loc};
  std::vector<int64_t> cubeShape =
      nDims ? std::vector<int64_t>(nDims, 2) : std::vector<int64_t>{1};
  TValue h = g.reshape(x, cubeShape, /*allowReorder=*/false, loc);
  h = cube.merge(h, stage, int(descending));
  return Val::tensor(g.reshape(h, x.shape, /*allowReorder=*/false, loc));
}

} // namespace handlers

} // namespace txl::irgen
