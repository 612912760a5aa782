//===- ConvertLayoutOpToLLVM.cpp - moving elements between layouts --------===//
//
// convert_layout, reshape and trans all relate each destination element to a
// source element. When every lane and warp already holds the elements it
// needs (compare the linear maps' lane/warp bases), registers are renamed;
// otherwise elements go through shared-memory scratch. A 2-D conversion of
// 16- or 32-bit elements (the matmul epilogue: accumulator fragments to
// coalesced store vectors) uses a swizzled tile, the one wgmma operands
// use, and moves each thread's contiguous runs as vectors of up to 16 bytes;
// the swizzle spreads a warp's accesses over the banks. Anything else is
// exchanged element by element at the destination's row-major position.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"

#include "txl/Layout/LayoutConstructors.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::LayoutMap;

namespace {

using txlgpu::CoordMap;

/// The swizzled tile a 2-D conversion of `dstTy` exchanges through, if
/// the element type allows one.
std::optional<txlgpu::MemDescType> exchangeTile(RankedTensorType dstTy) {
  Type elem = dstTy.getElementType();
  if (dstTy.getRank() != 2 || !elem.isIntOrFloat() ||
      (elem.getIntOrFloatBitWidth() != 16 &&
       elem.getIntOrFloatBitWidth() != 32))
    return std::nullopt;
  unsigned bits = elem.getIntOrFloatBitWidth();
  SmallVector<unsigned> order{1, 0};
  unsigned swizzle = ::txl::largestSwizzleBytes(dstTy.getShape(), bits, order);
  if (swizzle < 32)
    return std::nullopt;
  MLIRContext *ctx = dstTy.getContext();
  auto tile = txlgpu::MemDescType::get(
      ctx, dstTy.getShape(), elem,
      txlgpu::NVMMASharedEncodingAttr::get(ctx, swizzle, bits, order));
  if (!txlgpu::getSharedOffsets(tile))
    return std::nullopt;
  return tile;
}

/// Source registers to their places in `tile`, then destination registers
/// from theirs, both in vector runs; failure leaves no IR behind that
/// matters (the caller falls back before emitting anything).
FailureOr<SmallVector<Value>>
exchangeThroughTile(Operation *op, ArrayRef<Value> srcRegs,
                    RankedTensorType srcTy, RankedTensorType dstTy,
                    txlgpu::MemDescType tile,
                    ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  Type elem = dstTy.getElementType();
  Value base = scratchElementPtr(rewriter, loc, op, scratchOffset(op), elem,
                                 i32Const(rewriter, loc, 0));
  barrier(rewriter, loc);
  if (failed(storeTile(rewriter, loc, op, base, srcRegs, srcTy, tile)))
    return failure();
  barrier(rewriter, loc);
  return readTile(rewriter, loc, op, base, dstTy, tile);
}

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
  std::optional<txlgpu::MemDescType> tile;
  if (isa<txlgpu::ConvertLayoutOp>(op))
    tile = exchangeTile(dstTy);
  if (auto mapping = txlgpu::getRegisterRenaming(*srcMap, *dstMap, srcToDst)) {
    for (int s : *mapping)
      dstRegs.push_back(srcRegs[s]);
  } else if (tile) {
    auto exchanged =
        exchangeThroughTile(op, srcRegs, srcTy, dstTy, *tile, rewriter);
    if (failed(exchanged))
      return failure();
    dstRegs = std::move(*exchanged);
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

/// txlgpu.acc_to_dot_a: source column g + order[c] lands at column g + c
/// (order: wgmmaAccToOperandAColumns, a permutation of the column's low
/// bits, so the map is linear). The op exists to be free: the accumulator
/// and A layouts agree on lanes and warps under this map, so registers are
/// only renamed; anything else is reported rather than moved.
struct AccToDotAToLLVM : public ConvertOpToLLVMPattern<txlgpu::AccToDotAOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::AccToDotAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcTy = op.getSrc().getType();
    std::vector<int32_t> order = ::txl::wgmmaAccToOperandAColumns(
        srcTy.getElementType().getIntOrFloatBitWidth());
    int64_t group = order.size();
    std::vector<int32_t> inverse(group);
    for (int64_t c = 0; c < group; ++c)
      inverse[order[c]] = c;
    CoordMap srcToDst = [inverse, group](const Coord &c) {
      Coord out = c;
      out[1] = c[1] - c[1] % group + inverse[c[1] % group];
      return out;
    };
    auto srcMap = txlgpu::getLayoutMap(srcTy);
    auto dstMap = txlgpu::getLayoutMap(op.getType());
    std::optional<SmallVector<int>> mapping;
    if (srcMap && dstMap)
      mapping = txlgpu::getRegisterRenaming(*srcMap, *dstMap, srcToDst);
    if (!mapping)
      return op.emitOpError("the source's accumulator layout does not hold "
                            "the A fragment in place");
    Location loc = op.getLoc();
    SmallVector<Value> srcRegs = unpackTensor(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> dstRegs;
    for (int s : *mapping)
      dstRegs.push_back(srcRegs[s]);
    rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                      op.getType(), dstRegs));
    return success();
  }
};

} // namespace

void mlir::txl::populateConvertLayoutOpPatterns(TXLTypeConverter &tc,
                                                RewritePatternSet &patterns) {
  patterns
      .add<ConvertLayoutToLLVM, ReshapeToLLVM, TransToLLVM, AccToDotAToLLVM>(
          tc);
}
