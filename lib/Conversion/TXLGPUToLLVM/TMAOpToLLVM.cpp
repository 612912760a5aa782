//===- TMAOpToLLVM.cpp - TMA copies between global and shared memory ------===//
//
// txl.tma_load / txl.tma_store move one block between a global tensor and a
// shared tile through a CUtensorMap kernel parameter. One thread issues
// them: thread 0 of the calling warpgroup, the same thread that runs
// mbar_expect, so a producer warpgroup's expect and its copies come from
// one thread and a store's commit and wait groups are that thread's own.
//
// A tile whose rows are wider than its swizzle span is stored by the NVMMA
// shared layout as column chunks (all rows of the first span, then of the
// next), and the host encodes the map with a box one span wide (kernel
// metadata), so such a block is several copies, one per chunk. TMA takes
// coordinates innermost first: (column, row).
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::MemDescType;
using txlgpu::NVMMASharedEncodingAttr;

namespace {

/// How a 2-D tile splits into TMA boxes.
struct TileBoxes {
  int64_t count = 1;      ///< boxes per tile (column chunks)
  int64_t boxCols = 0;    ///< elements per box row
  int64_t chunkBytes = 0; ///< shared-memory bytes of one chunk
};

FailureOr<TileBoxes> tileBoxes(Operation *op, MemDescType tile) {
  auto enc = dyn_cast_or_null<NVMMASharedEncodingAttr>(tile.getEncoding());
  ArrayRef<int64_t> shape = tile.getShape();
  if (!enc || shape.size() != 2 || enc.getOrder().size() != 2 ||
      enc.getOrder()[0] != 1)
    return op->emitError("TMA needs a row-major 2-D shared tile with an NVMMA "
                         "layout, got ")
           << tile;
  int64_t bits = enc.getElemBits(), swizzle = enc.getSwizzleBytes();
  TileBoxes boxes;
  boxes.boxCols =
      swizzle ? std::min<int64_t>(shape[1], swizzle * 8 / bits) : shape[1];
  boxes.count = shape[1] / boxes.boxCols;
  boxes.chunkBytes = shape[0] * boxes.boxCols * bits / 8;
  return boxes;
}

/// The TMA coordinates (innermost first) of chunk `c` of a tile whose
/// top-left element is at (row, col).
SmallVector<Value> boxCoords(OpBuilder &b, Location loc, ValueRange coords,
                             const TileBoxes &boxes, int64_t c) {
  Value col = coords[1];
  if (c)
    col = LLVM::AddOp::create(b, loc, col, i32Const(b, loc, c * boxes.boxCols));
  return {col, coords[0]};
}

Value chunkAddress(OpBuilder &b, Location loc, Value base,
                   const TileBoxes &boxes, int64_t c) {
  if (!c)
    return base;
  return LLVM::GEPOp::create(
      b, loc, base.getType(), b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{int32_t(c * boxes.chunkBytes)});
}

/// Spins on `bar` until the phase the arrival that returned `state`
/// belongs to has completed (try_wait suspends up to a system time limit
/// per probe).
void waitOnState(ConversionPatternRewriter &rewriter, Location loc, Value bar,
                 Value state) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *probe = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::BrOp::create(rewriter, loc, probe);
  rewriter.setInsertionPointToEnd(probe);
  Value done = NVVM::MBarrierTryWaitOp::create(
      rewriter, loc, rewriter.getI1Type(), bar, state, /*ticks=*/Value());
  LLVM::CondBrOp::create(rewriter, loc, done, after, probe);
  rewriter.setInsertionPointToStart(after);
}

struct TMALoadOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMALoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMALoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TileBoxes> boxes = tileBoxes(op, op.getDst().getType());
    if (failed(boxes))
      return failure();
    Location loc = op.getLoc();
    Value issue = andPred(rewriter, loc, isWarpGroupLeader(rewriter, loc, op),
                          adaptor.getPred());
    Value mask = adaptor.getMulticast();
    if (op.getSync())
      barrier(rewriter, loc); // earlier readers of the tile are done
    ifThen(rewriter, loc, issue, [&] {
      Value state;
      if (op.getSync()) {
        int64_t bytes = boxes->count * boxes->chunkBytes;
        state = NVVM::MBarrierArriveExpectTxOp::create(
                    rewriter, loc, rewriter.getI64Type(), adaptor.getBar(),
                    i32Const(rewriter, loc, bytes),
                    NVVM::MemScopeKindAttr::get(getContext(),
                                                NVVM::MemScopeKind::CTA),
                    rewriter.getBoolAttr(false), Value())
                    .getRes();
      }
      for (int64_t c = 0; c < boxes->count; ++c) {
        SmallVector<Value> at =
            boxCoords(rewriter, loc, adaptor.getCoords(), *boxes, c);
        Value dst = chunkAddress(rewriter, loc, adaptor.getDst(), *boxes, c);
        // A multicast names shared::cluster addresses; the calling CTA's
        // own offset is the one every destination CTA receives at.
        if (mask)
          dst = LLVM::AddrSpaceCastOp::create(
              rewriter, loc,
              LLVM::LLVMPointerType::get(rewriter.getContext(),
                                         kSharedClusterAddressSpace),
              dst);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            rewriter, loc, dst, adaptor.getDesc(), at, adaptor.getBar(),
            /*im2colOffsets=*/ValueRange(), mask,
            /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
            /*isCTAOnly=*/!mask,
            /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
      }
      if (state)
        waitOnState(rewriter, loc, adaptor.getBar(), state);
    });
    // The leader saw the bytes land; the barrier hands them to the others.
    if (op.getSync())
      barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The tile was written by threads (smem_store fences for the async proxy
/// and synchronizes the warpgroup) or by TMA; the leader issues the copies
/// and closes them into one bulk group that tma_store_wait counts.
struct TMAStoreOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMAStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMAStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TileBoxes> boxes = tileBoxes(op, op.getSrc().getType());
    if (failed(boxes))
      return failure();
    Location loc = op.getLoc();
    ifThen(rewriter, loc, isWarpGroupLeader(rewriter, loc, op), [&] {
      for (int64_t c = 0; c < boxes->count; ++c)
        NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
            rewriter, loc, adaptor.getDesc(),
            chunkAddress(rewriter, loc, adaptor.getSrc(), *boxes, c),
            boxCoords(rewriter, loc, adaptor.getCoords(), *boxes, c),
            /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
            /*predicate=*/Value());
      NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every thread waits; only the leader has groups, the others pass at once.
/// The `.read` form returns when the sources may be overwritten: the next
/// writer of the tile (smem_store) synchronizes the warpgroup first, so it
/// cannot run ahead of the leader's wait.
struct TMAStoreWaitOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::TMAStoreWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMAStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, op.getLoc(),
                                         uint32_t(op.getPendings()),
                                         rewriter.getUnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::txl::populateTMAOpPatterns(TXLTypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<TMALoadOpToLLVM, TMAStoreOpToLLVM, TMAStoreWaitOpToLLVM>(tc);
}
