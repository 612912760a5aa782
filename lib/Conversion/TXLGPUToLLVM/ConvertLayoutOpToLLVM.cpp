//===- ConvertLayoutOpToLLVM.cpp - moving elements between layouts --------===//
//
// convert_layout, reshape and trans all relate each destination element to a
// source element. When every lane and warp already holds the elements it
// needs (compare the linear maps' lane/warp bases), registers are renamed;
// otherwise elements go through a shared-memory scratch array indexed by the
// destination's row-major position.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::LayoutMap;

namespace {

using txlgpu::CoordMap;

/// Lowers `op` (one source tensor, one result) given how coordinates map.
LogicalResult lowerRelayout(Operation *op, Value src, Value llSrc,
                            const CoordMap &srcToDst,
                            ConversionPatternRewriter &rewriter,
                            const TypeConverter &tc) {
  Location loc = op->getLoc();
  auto srcTy = cast<RankedTensorType>(src.getType());
  auto dstTy = cast<RankedTensorType>(op->getResult(0).getType());
  auto srcMap = txlgpu::getLayoutMap(srcTy);
  auto dstMap = txlgpu::getLayoutMap(dstTy);
  if (!srcMap || !dstMap)
    return rewriter.notifyMatchFailure(op, "no layout");
  SmallVector<Value> srcRegs = unpackTensor(rewriter, loc, llSrc);
  SmallVector<Value> dstRegs;
  if (auto mapping = txlgpu::getRegisterRenaming(*srcMap, *dstMap, srcToDst)) {
    for (int s : *mapping)
      dstRegs.push_back(srcRegs[s]);
  } else {
    Type elemTy = convertElementType(tc, srcTy);
    int64_t offset = scratchOffset(op);
    // Write every source element at its destination position...
    SmallVector<SmallVector<Value>> srcCoords =
        allRegCoords(rewriter, loc, *srcMap);
    barrier(rewriter, loc);
    for (int r = 0; r < srcMap->numRegs(); ++r) {
      if (srcMap->isDuplicateReg(r))
        continue;
      // Destination coordinates are linear in the source's bits, so map the
      // runtime coordinate through the (linear) coordinate map bit by bit.
      Value flat = i32Const(rewriter, loc, 0);
      for (size_t d = 0; d < srcMap->shape.size(); ++d) {
        for (int64_t bit = 0; (int64_t(1) << bit) < srcMap->shape[d]; ++bit) {
          Coord unit(srcMap->shape.size(), 0);
          unit[d] = int64_t(1) << bit;
          int64_t contribution = dstMap->flatIndex(srcToDst(unit));
          Value isSet = LLVM::AndOp::create(
              rewriter, loc,
              LLVM::LShrOp::create(rewriter, loc, srcCoords[r][d],
                                   i32Const(rewriter, loc, bit)),
              i32Const(rewriter, loc, 1));
          flat = LLVM::XOrOp::create(
              rewriter, loc, flat,
              LLVM::MulOp::create(rewriter, loc, isSet,
                                  i32Const(rewriter, loc, contribution)));
        }
      }
      storeScratch(rewriter, loc,
                   scratchElementPtr(rewriter, loc, op, offset, elemTy, flat),
                   srcRegs[r]);
    }
    barrier(rewriter, loc);
    // ...and read every destination element back.
    SmallVector<SmallVector<Value>> dstCoords =
        allRegCoords(rewriter, loc, *dstMap);
    for (int r = 0; r < dstMap->numRegs(); ++r) {
      Value flat = flatIndex(rewriter, loc, dstCoords[r], dstMap->shape);
      dstRegs.push_back(loadScratch(
          rewriter, loc,
          scratchElementPtr(rewriter, loc, op, offset, elemTy, flat), elemTy));
    }
  }
  rewriter.replaceOp(op, packTensor(rewriter, loc, tc, dstTy, dstRegs));
  return success();
}

struct ConvertLayoutToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::ConvertLayoutOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerRelayout(
        op, op.getSrc(), adaptor.getSrc(), txlgpu::identityCoordMap(), rewriter,
        *getTypeConverter());
  }
};

struct ReshapeToLLVM : public ConvertOpToLLVMPattern<ReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcTy = cast<RankedTensorType>(op.getSrc().getType());
    return lowerRelayout(op, op.getSrc(), adaptor.getSrc(),
                         txlgpu::reshapeCoordMap(srcTy.getShape(),
                                                 op.getType().getShape()),
                         rewriter, *getTypeConverter());
  }
};

struct TransToLLVM : public ConvertOpToLLVMPattern<TransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    CoordMap permute = txlgpu::transposeCoordMap(op.getOrder());
    return lowerRelayout(op, op.getSrc(), adaptor.getSrc(), permute, rewriter,
                         *getTypeConverter());
  }
};

} // namespace

void mlir::txl::populateConvertLayoutOpPatterns(TXLTypeConverter &tc,
                                                RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutToLLVM, ReshapeToLLVM, TransToLLVM>(tc);
}
