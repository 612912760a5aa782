//===- GatherOpToLLVM.cpp - tl.gather through shared-memory scratch -------===//
//
// txl.gather reads source elements at data-dependent positions along one
// axis, so the source goes to shared scratch (row-major, every element once)
// and each thread reads the elements its index registers name. The index is
// wrapped to the axis (the size is a power of two): an out-of-range index
// gives an unspecified element, as in Triton, but never reads outside the
// tile.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

/// `index` (any integer width) as an i32 position along an axis of `size`.
Value wrappedIndex(OpBuilder &b, Location loc, Value index, int64_t size) {
  Type i32 = b.getI32Type();
  unsigned bits = index.getType().getIntOrFloatBitWidth();
  if (bits > 32)
    index = LLVM::TruncOp::create(b, loc, i32, index);
  else if (bits < 32)
    index = LLVM::ZExtOp::create(b, loc, i32, index);
  return LLVM::AndOp::create(b, loc, index, i32Const(b, loc, size - 1));
}

struct GatherToLLVM : public ConvertOpToLLVMPattern<GatherOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcTy = cast<RankedTensorType>(op.getSrc().getType());
    auto dstTy = cast<RankedTensorType>(op.getType());
    auto srcMap = txlgpu::getLayoutMap(srcTy);
    auto dstMap = txlgpu::getLayoutMap(dstTy);
    auto idxMap = txlgpu::getLayoutMap(op.getIndices().getType());
    // AssignLayouts gives the result the indices' layout: register r of
    // the indices names the source row of result register r.
    if (!srcMap || !dstMap || !idxMap ||
        op.getIndices().getType().getEncoding() != dstTy.getEncoding())
      return rewriter.notifyMatchFailure(op, "no layout");
    SmallVector<Value> srcRegs = unpackTensor(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> idxRegs =
        unpackTensor(rewriter, loc, adaptor.getIndices());
    Type elemTy = convertElementType(*getTypeConverter(), srcTy);
    int64_t offset = scratchOffset(op);
    unsigned axis = op.getAxis();
    ArrayRef<int64_t> srcShape = srcTy.getShape();

    // Every source element to its row-major place...
    SmallVector<SmallVector<Value>> srcCoords =
        allRegCoords(rewriter, loc, *srcMap);
    barrier(rewriter, loc);
    for (int r = 0; r < srcMap->numRegs(); ++r) {
      if (srcMap->isDuplicateReg(r))
        continue;
      Value flat = flatIndex(rewriter, loc, srcCoords[r], srcShape);
      storeScratch(rewriter, loc,
                   scratchElementPtr(rewriter, loc, op, offset, elemTy, flat),
                   srcRegs[r]);
    }
    barrier(rewriter, loc);
    // ...and each result element from the row its index names.
    SmallVector<SmallVector<Value>> dstCoords =
        allRegCoords(rewriter, loc, *dstMap);
    SmallVector<Value> results;
    for (int r = 0; r < dstMap->numRegs(); ++r) {
      SmallVector<Value> coord = dstCoords[r];
      coord[axis] = wrappedIndex(rewriter, loc, idxRegs[r], srcShape[axis]);
      Value flat = flatIndex(rewriter, loc, coord, srcShape);
      results.push_back(loadScratch(
          rewriter, loc,
          scratchElementPtr(rewriter, loc, op, offset, elemTy, flat), elemTy));
    }
    rewriter.replaceOp(
        op, packTensor(rewriter, loc, *getTypeConverter(), dstTy, results));
    return success();
  }
};

} // namespace

void mlir::txl::populateGatherOpPatterns(TXLTypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<GatherToLLVM>(tc);
}
