//===- BlockPointer.cpp - tl.make_block_ptr, tl.advance -------------------===//
//
// A block pointer is a tagged tuple (s = "block_ptr"): the base pointer,
// the tensor's shape, strides and the block's offsets (scalars, runtime
// or not), then the block shape and the order (constants). Loops carry it
// like any tuple: its runtime leaves become iter args. A load or store
// through it becomes an ordinary tensor of pointers, base + sum over the
// dimensions of (offset + arange) * stride in 64-bit arithmetic (as Triton
// does for block pointers), masked on the dimensions named in
// boundary_check; the rest of the compiler (vectorization, the cp.async
// pipeliner) sees plain loads and stores.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

using namespace txl;
using namespace txl::irgen;

namespace {

enum BlockField { kBase, kShape, kStrides, kOffsets, kBlockShape, kOrder };

std::vector<Val> tupleElts(Gen &g, const std::optional<Val> &v,
                           const char *what, const std::string &fname,
                           SourceLoc loc) {
  if (!v || !v->isTuple())
    g.fail(loc, fname + ": " + what + " must be a tuple");
  return v->elts;
}

} // namespace

bool txl::irgen::isBlockPointer(const Val &v) {
  return v.isTuple() && v.s == "block_ptr" && v.elts.size() == 6;
}

Val Gen::makeBlockPointer(CallArgs &args, SourceLoc loc) {
  const std::string fname = "tl.make_block_ptr";
  auto p = bind(args,
                {"base", "shape", "strides", "offsets", "block_shape", "order"},
                6, fname, loc);
  if (!p[0]->isTensor() || p[0]->t.isTensor() || !p[0]->t.dtype.isPtr())
    fail(loc, fname + ": base must be a scalar pointer, got " +
                  p[0]->kindName());
  std::vector<Val> shape = tupleElts(*this, p[1], "shape", fname, loc);
  std::vector<Val> strides = tupleElts(*this, p[2], "strides", fname, loc);
  std::vector<Val> offsets = tupleElts(*this, p[3], "offsets", fname, loc);
  std::vector<int64_t> block = constShape(*p[4], loc);
  std::vector<int64_t> order = constShape(*p[5], loc);
  size_t rank = block.size();
  if (rank == 0 || shape.size() != rank || strides.size() != rank ||
      offsets.size() != rank || order.size() != rank)
    fail(loc, fname + ": shape, strides, offsets, block_shape and order "
                      "must have the same length");
  validateShape(block, loc);
  std::vector<bool> seen(rank, false);
  for (int64_t d : order) {
    if (d < 0 || size_t(d) >= rank || seen[d])
      fail(loc, fname + ": order must be a permutation of 0.." +
                    std::to_string(rank - 1));
    seen[d] = true;
  }
  for (const std::vector<Val> *part : {&shape, &strides, &offsets})
    for (const Val &e : *part)
      if (!(e.isIntLike() ||
            (e.isTensor() && !e.t.isTensor() && e.t.dtype.isInt())))
        fail(loc, fname + ": shape, strides and offsets must be integers");
  std::vector<Val> blockVals, orderVals;
  for (int64_t d : block)
    blockVals.push_back(Val::integer(d));
  for (int64_t d : order)
    orderVals.push_back(Val::integer(d));
  Val bp = Val::tuple({*p[0], Val::tuple(shape), Val::tuple(strides),
                       Val::tuple(offsets), Val::tuple(blockVals),
                       Val::tuple(orderVals)});
  bp.s = "block_ptr";
  return bp;
}

Val Gen::advanceBlockPointer(CallArgs &args, SourceLoc loc) {
  auto p = bind(args, {"base", "offsets"}, 2, "tl.advance", loc);
  if (!isBlockPointer(*p[0]))
    fail(loc, "tl.advance: base must be a block pointer (tl.make_block_ptr)");
  std::vector<Val> delta = tupleElts(*this, p[1], "offsets", "tl.advance",
                                     loc);
  Val bp = *p[0];
  std::vector<Val> &offsets = bp.elts[kOffsets].elts;
  if (delta.size() != offsets.size())
    fail(loc, "tl.advance: " + std::to_string(delta.size()) +
                  " offsets for a block pointer of rank " +
                  std::to_string(offsets.size()));
  for (size_t d = 0; d < offsets.size(); ++d)
    offsets[d] = binary(BinOpKind::Add, offsets[d], delta[d], loc);
  return bp;
}

TValue Gen::blockPointerTensor(const Val &bp, const std::vector<int64_t> &check,
                               TValue *mask, SourceLoc loc) {
  std::vector<int64_t> block = constShape(bp.elts[kBlockShape], loc);
  size_t rank = block.size();
  for (int64_t d : check)
    if (d < 0 || size_t(d) >= rank)
      fail(loc, "boundary_check dimension " + std::to_string(d) +
                    " is out of range for a block pointer of rank " +
                    std::to_string(rank));
  Val ptr = Val::tensor(splat(bp.elts[kBase].t, block));
  Val inBounds;
  for (size_t d = 0; d < rank; ++d) {
    // The indices of dimension d, shaped [1, .., block[d], .., 1].
    TValue range = makeRange(0, block[d], loc);
    for (size_t k = 0; k < rank; ++k)
      if (k != d)
        range = expandDims(range, int(k), loc);
    Val offset = Val::tensor(cast(toTensor(bp.elts[kOffsets].elts[d], loc),
                                  DType::I64, loc));
    Val index = binary(BinOpKind::Add,
                       Val::tensor(cast(range, DType::I64, loc)), offset, loc);
    Val stride = Val::tensor(
        cast(toTensor(bp.elts[kStrides].elts[d], loc), DType::I64, loc));
    ptr = binary(BinOpKind::Add, ptr, binary(BinOpKind::Mul, index, stride, loc),
                 loc);
    if (std::find(check.begin(), check.end(), int64_t(d)) != check.end()) {
      Val size = Val::tensor(
          cast(toTensor(bp.elts[kShape].elts[d], loc), DType::I64, loc));
      Val ok = logical(true,
                       compare(CmpOpKind::Ge, index, Val::integer(0), loc),
                       compare(CmpOpKind::Lt, index, size, loc), loc);
      inBounds = inBounds.isNone() ? ok : logical(true, inBounds, ok, loc);
    }
  }
  TValue p = broadcastTo(ptr.t, block, loc);
  if (mask && !inBounds.isNone())
    *mask = broadcastTo(inBounds.t, block, loc);
  return p;
}
