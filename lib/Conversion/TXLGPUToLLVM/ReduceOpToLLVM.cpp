//===- ReduceOpToLLVM.cpp - reductions in three levels --------------------===//
//
// 1. within a thread: registers that differ only along the axis are
//    combined (a balanced tree, for instruction-level parallelism); 2. within a warp: butterfly shuffles over the lane bits that
//    move along the axis; 3. across warps: every warp writes its partial to
//    shared memory, and every thread combines the partials of its elements
//    in warp order (so all replicas compute bit-identical results).
// The result is in the slice layout of the operand's layout.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"


using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::LayoutMap;

namespace {

using Values = SmallVector<Value>;

/// The combine region applied to (acc, cur).
Values combine(ConversionPatternRewriter &rewriter, ReduceOp op,
               ArrayRef<Value> acc, ArrayRef<Value> cur) {
  return cloneCombineRegion(rewriter, op.getCombineOp().front(), acc, cur);
}

/// `values` combined pairwise, neighbours first, until one is left: the
/// same sequence as a left fold (so any associative combine gives its
/// result), but a chain of log2(n) dependent combines instead of n - 1,
/// which lets a thread's row max or row sum issue several at a time.
Values combineTree(ConversionPatternRewriter &rewriter, ReduceOp op,
                   SmallVector<Values> values) {
  while (values.size() > 1) {
    SmallVector<Values> next;
    for (size_t i = 0; i + 1 < values.size(); i += 2)
      next.push_back(combine(rewriter, op, values[i], values[i + 1]));
    if (values.size() % 2)
      next.push_back(values.back());
    values = std::move(next);
  }
  return values.front();
}

bool movesAlong(const Coord &basis, unsigned axis) { return basis[axis] != 0; }

struct ReduceToLLVM : public ConvertOpToLLVMPattern<ReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcTy = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto map = txlgpu::getLayoutMap(srcTy);
    if (!map)
      return rewriter.notifyMatchFailure(op, "no layout");
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    SmallVector<Values> srcRegs; // [operand][register]
    for (Value v : adaptor.getSrcs())
      srcRegs.push_back(unpackTensor(rewriter, loc, v));

    // 1. Within the thread, keyed by the register coordinate off the axis:
    // each key's registers, in register order, combined as a balanced tree.
    std::map<int64_t, SmallVector<Values>> items;
    std::map<int64_t, int> firstReg;
    for (int r = 0; r < map->numRegs(); ++r) {
      if (map->isDuplicateReg(r))
        continue;
      Coord c = map->regCoord(r);
      c[axis] = 0;
      int64_t key = map->flatIndex(c);
      Values cur;
      for (size_t k = 0; k < n; ++k)
        cur.push_back(srcRegs[k][r]);
      firstReg.try_emplace(key, r);
      items[key].push_back(cur);
    }
    std::map<int64_t, Values> accs;
    for (auto &[key, values] : items)
      accs[key] = combineTree(rewriter, op, values);

    // 2. Within the warp.
    for (auto [bit, basis] : llvm::enumerate(map->laneBases)) {
      if (!movesAlong(basis, axis))
        continue;
      for (auto &[key, acc] : accs) {
        Values other;
        for (Value v : acc)
          other.push_back(shuffleXor(rewriter, loc, v, 1 << bit));
        acc = combine(rewriter, op, acc, other);
      }
    }

    // 3. Across warps.
    SmallVector<unsigned> axisWarpBits;
    for (auto [bit, basis] : llvm::enumerate(map->warpBases))
      if (movesAlong(basis, axis))
        axisWarpBits.push_back(bit);
    if (!axisWarpBits.empty())
      reduceAcrossWarps(rewriter, op, *map, axisWarpBits, firstReg, accs);

    // Results: one value per register of the slice layout.
    auto dstTy = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!dstTy) {
      rewriter.replaceOp(op, accs.begin()->second);
      return success();
    }
    auto dstMap = txlgpu::getLayoutMap(dstTy);
    if (!dstMap)
      return rewriter.notifyMatchFailure(op, "no result layout");
    SmallVector<Values> results(n);
    for (int r = 0; r < dstMap->numRegs(); ++r) {
      Coord c = dstMap->regCoord(r);
      c.insert(c.begin() + axis, 0);
      auto it = accs.find(map->flatIndex(c));
      if (it == accs.end())
        return op.emitOpError("internal error: result layout is not the "
                              "slice of the operand layout");
      for (size_t k = 0; k < n; ++k)
        results[k].push_back(it->second[k]);
    }
    Values packed;
    for (size_t k = 0; k < n; ++k)
      packed.push_back(packTensor(rewriter, loc, *getTypeConverter(),
                                  op.getResult(k).getType(), results[k]));
    rewriter.replaceOp(op, packed);
    return success();
  }

  void reduceAcrossWarps(ConversionPatternRewriter &rewriter, ReduceOp op,
                         const LayoutMap &map, ArrayRef<unsigned> axisWarpBits,
                         const std::map<int64_t, int> &firstReg,
                         std::map<int64_t, Values> &accs) const {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    int64_t numPartials = int64_t(1) << axisWarpBits.size();
    SmallVector<int64_t> outShape(map.shape.begin(), map.shape.end());
    outShape[axis] = 1;
    int64_t outElems = 1;
    for (int64_t d : outShape)
      outElems *= d;

    // Index of this warp among the warps that split the axis.
    Value warp = warpId(rewriter, loc);
    Value slot = i32Const(rewriter, loc, 0);
    for (auto [i, bit] : llvm::enumerate(axisWarpBits)) {
      Value b = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, warp, i32Const(rewriter, loc, bit)),
          i32Const(rewriter, loc, 1));
      slot = LLVM::OrOp::create(
          rewriter, loc, slot,
          LLVM::ShlOp::create(rewriter, loc, b, i32Const(rewriter, loc, i)));
    }
    // Coordinates of every register, with the axis zeroed, as flat indices
    // into the reduced shape.
    SmallVector<SmallVector<Value>> coords = allRegCoords(rewriter, loc, map);
    auto outIndexOf = [&](int reg) {
      SmallVector<Value> c = coords[reg];
      c[axis] = i32Const(rewriter, loc, 0);
      return flatIndex(rewriter, loc, c, outShape);
    };
    SmallVector<int64_t> operandOffset;
    int64_t offset = scratchOffset(op);
    for (Value src : op.getSrcs()) {
      operandOffset.push_back(offset);
      Type elem = getElementTypeOrSelf(src.getType());
      offset += numPartials * outElems * scratchElemBytes(elem);
      offset = llvm::alignTo(offset, 16);
    }
    barrier(rewriter, loc);
    for (auto &[key, acc] : accs) {
      Value out = outIndexOf(firstReg.at(key));
      Value idx = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, slot,
                              i32Const(rewriter, loc, outElems)),
          out);
      for (size_t k = 0; k < acc.size(); ++k)
        storeScratch(rewriter, loc,
                     scratchElementPtr(rewriter, loc, op, operandOffset[k],
                                       acc[k].getType(), idx),
                     acc[k]);
    }
    barrier(rewriter, loc);
    for (auto &[key, acc] : accs) {
      Value out = outIndexOf(firstReg.at(key));
      Values total;
      for (int64_t p = 0; p < numPartials; ++p) {
        Value idx = LLVM::AddOp::create(rewriter, loc, out,
                                        i32Const(rewriter, loc, p * outElems));
        Values partial;
        for (size_t k = 0; k < acc.size(); ++k)
          partial.push_back(loadScratch(
              rewriter, loc,
              scratchElementPtr(rewriter, loc, op, operandOffset[k],
                                acc[k].getType(), idx),
              acc[k].getType()));
        total = p == 0 ? partial : combine(rewriter, op, total, partial);
      }
      acc = total;
    }
  }
};

} // namespace

void mlir::txl::populateReduceOpPatterns(TXLTypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<ReduceToLLVM>(tc);
}
