//===- Indexing.cpp - tl.gather, tl.cat, tl.swizzle2d ---------------------===//
#include "Gen.h"
#include "Registry.h"

using namespace mlir;

namespace txl::irgen {

namespace {

/// A compile-time axis of a tensor of rank `rank`, wrapped like Python's
/// negative indices.
int64_t axisArg(Gen &g, const std::optional<Val> &v, int64_t rank,
                const std::string &fname, const char *what, SourceLoc loc) {
  int64_t axis = g.constInt(v, what, loc);
  if (axis < -rank || axis >= rank)
    g.fail(loc, fname + ": " + what + " " + std::to_string(axis) +
                    " is out of range for a tensor of rank " +
                    std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

} // namespace

namespace handlers {

/// tl.gather(src, index, axis): result[.., i, ..] = src[.., index[.., i, ..],
/// ..] along `axis`; `index` has src's rank and src's size in every other
/// dimension (Triton's checks, with its messages' meaning).
Val gather(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"src", "index", "axis"}, 3, name, loc);
  TValue src = g.tensorArg(p[0], "src", loc);
  TValue index = g.tensorArg(p[1], "index", loc);
  if (!index.dtype.isInt() || index.dtype.isBool())
    g.fail(loc, "tl.gather: index must be an integer tensor, got " +
                    index.typeStr());
  int64_t rank = int64_t(src.shape.size());
  if (rank == 0)
    g.fail(loc, "tl.gather: src must be a tensor, got " + src.typeStr());
  if (int64_t(index.shape.size()) != rank)
    g.fail(loc, "tl.gather: source and index tensors must have the same "
                "rank, got " +
                    src.typeStr() + " and " + index.typeStr());
  int64_t axis = axisArg(g, p[2], rank, name, "axis", loc);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && index.shape[d] != src.shape[d])
      g.fail(loc, "tl.gather: index dimension " + std::to_string(d) +
                      " must match the source's (" + src.typeStr() + " and " +
                      index.typeStr() + ")");
  Value r = mlir::txl::GatherOp::create(
      g.b, g.cur, g.mlirType(src.dtype, index.shape), src.value, index.value,
      g.b.getI32IntegerAttr(int32_t(axis)));
  return Val::tensor({r, src.dtype, index.shape});
}

/// tl.cat(input, other, can_reorder=False, dim=0): the two tensors (same
/// shape) one after the other along `dim`, in order. Triton 3.6 asked for
/// can_reorder=True on 1-D tensors and may have reordered; newer Triton
/// ignores can_reorder, takes `dim` and keeps the order, as txl does:
/// join, move the new dimension before `dim`, merge the two.
Val cat(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "other", "can_reorder", "dim"}, 2, name, loc);
  TValue a = g.tensorArg(p[0], "input", loc);
  TValue b = g.tensorArg(p[1], "other", loc);
  int64_t rank = int64_t(a.shape.size());
  if (rank == 0 || b.shape.size() != a.shape.size())
    g.fail(loc, "tl.cat: tensors must have the same rank, got " + a.typeStr() +
                    " and " + b.typeStr());
  if (a.shape != b.shape)
    g.fail(loc, "tl.cat requires tensors of the same shape, got " +
                    shapeStr(a.shape) + " and " + shapeStr(b.shape));
  if (a.dtype != b.dtype)
    g.fail(loc, "tl.cat: tensors must have the same dtype, got " +
                    a.dtype.str() + " and " + b.dtype.str());
  int64_t dim =
      p[3] && !p[3]->isNone() ? axisArg(g, p[3], rank, name, "dim", loc) : 0;
  CallArgs joinArgs;
  joinArgs.pos = {Val::tensor(a), Val::tensor(b)};
  Val joined = join(g, "tl.join", joinArgs, loc);
  std::vector<Val> order;
  for (int64_t d = 0; d < rank; ++d)
    order.push_back(Val::integer(d));
  order.insert(order.begin() + dim, Val::integer(rank));
  CallArgs permuteArgs;
  permuteArgs.pos = {joined, Val::tuple(order)};
  TValue moved =
      g.toTensor(transPermute(g, "tl.permute", permuteArgs, loc), loc);
  std::vector<int64_t> shape = a.shape;
  shape[dim] *= 2;
  return Val::tensor(g.reshape(moved, shape, /*allowReorder=*/false, loc));
}

/// tl.swizzle2d: Triton's grouped reordering of a row-major size_i x
/// size_j grid, as index arithmetic (standard.py's definition).
Val swizzle2d(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"i", "j", "size_i", "size_j", "size_g"}, 5, name, loc);
  auto bin = [&](BinOpKind k, const Val &x, const Val &y) {
    return g.binary(k, x, y, loc);
  };
  Val ij = bin(BinOpKind::Add, bin(BinOpKind::Mul, *p[0], *p[3]), *p[1]);
  Val sizeGJ = bin(BinOpKind::Mul, *p[4], *p[3]);
  Val groupId = bin(BinOpKind::FloorDiv, ij, sizeGJ);
  Val offI = bin(BinOpKind::Mul, groupId, *p[4]);
  Val sizeG = g.minMax(false, bin(BinOpKind::Sub, *p[2], offI), *p[4], loc);
  ij = bin(BinOpKind::Mod, ij, sizeGJ);
  Val newI = bin(BinOpKind::Add, offI, bin(BinOpKind::Mod, ij, sizeG));
  Val newJ = bin(BinOpKind::FloorDiv, ij, sizeG);
  return Val::tuple({newI, newJ});
}

} // namespace handlers

} // namespace txl::irgen
