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
// metadata), so such a block is several copies, one per chunk; likewise a
// block larger than TMA's 256 elements per box dimension, and the leading
// dimensions of a rank 3-5 tile whose rows are chunked (getTMABoxes says
// which boxes). TMA takes coordinates innermost first: (column, row, ...).
//
// tl.make_tensor_descriptor builds the CUtensorMap in the kernel: the
// first warp of the calling warpgroup zeroes the group's 128-byte shared
// slot, its lane 0 writes every field with tensormap.replace (the swizzle
// and box AssignSharedLayouts chose, as for a host descriptor), and the
// warp copies the map to the group's slot of the CTA's global scratch with
// a release to the tensormap proxy. A barrier of the warpgroup then orders
// everyone after that release, and each thread acquires the slot for the
// tensormap proxy before any TMA op may name it.
//
// txl.prefetch_l2 is the bulk (non-tensor) side of the same copy engine:
// cp.async.bulk.prefetch.L2 of a contiguous global range, no descriptor,
// no shared memory, no barrier.
//
//===----------------------------------------------------------------------===//
#include "InlinePTX.h"
#include "Utility.h"

#include "txl/Runtime/TensorMapCodes.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::MemDescType;
using txlgpu::NVMMASharedEncodingAttr;

namespace {

/// The TMA boxes of a whole tile (getTMABoxes), or an error on `op`.
FailureOr<txlgpu::TMABoxes> tileBoxes(Operation *op, MemDescType tile) {
  std::optional<txlgpu::TMABoxes> boxes = txlgpu::getTMABoxes(tile);
  if (!boxes)
    return op->emitError("TMA needs a row-major shared tile of rank 1 to 5 "
                         "with an NVMMA layout (unswizzled for rank 1) and "
                         "rows of at least 16 bytes, got ")
           << tile;
  if (boxes->copies.empty())
    return op->emitError("TMA would move ")
           << tile << " as " << boxes->numCopies << " boxes; at most "
           << txlgpu::TMABoxes::kMaxCopies << " are unrolled";
  return *boxes;
}

/// The TMA coordinates (innermost first) of `copy` of a tile whose first
/// element is at `coords` (outermost first).
SmallVector<Value> boxCoords(OpBuilder &b, Location loc, ValueRange coords,
                             const txlgpu::TMABoxes::Copy &copy) {
  SmallVector<Value> at;
  for (size_t d = coords.size(); d-- > 0;) {
    Value c = coords[d];
    if (copy.at[d])
      c = LLVM::AddOp::create(b, loc, c, i32Const(b, loc, copy.at[d]));
    at.push_back(c);
  }
  return at;
}

Value boxAddress(OpBuilder &b, Location loc, Value base,
                 const txlgpu::TMABoxes::Copy &copy) {
  if (!copy.byteOffset)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(copy.byteOffset)});
}

/// Spins on `bar` until the phase the arrival that returned `state`
/// belongs to has completed (try_wait suspends up to a system time limit
/// per probe).
void waitOnState(ConversionPatternRewriter &rewriter, Location loc, Value bar,
                 Value state) {
  spinUntil(rewriter, loc, [&](OpBuilder &b) -> Value {
    return NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), bar, state,
                                           /*ticks=*/Value());
  });
}

/// The shared::cluster address of the barrier at `bar`'s offset in the
/// even CTA of the calling CTA's pair, typed as a shared pointer (NVVM's
/// TMA op takes one; a cta_group::2 copy reads the register as a
/// shared::cluster address, which is the point).
Value pairLeaderBarrier(OpBuilder &b, Location loc, Value bar) {
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  rank = LLVM::AndOp::create(b, loc, rank, i32Const(b, loc, ~1));
  Value remote = NVVM::MapaOp::create(
      b, loc,
      LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterAddressSpace),
      bar, rank);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), remote);
  return LLVM::IntToPtrOp::create(b, loc, bar.getType(), address);
}

struct TMALoadOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMALoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMALoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<txlgpu::TMABoxes> boxes = tileBoxes(op, op.getDst().getType());
    if (failed(boxes))
      return failure();
    Location loc = op.getLoc();
    Value issue = andPred(rewriter, loc, isWarpGroupLeader(rewriter, loc, op),
                          adaptor.getPred());
    Value mask = adaptor.getMulticast();
    bool pair = op.getTwoCtas();
    Value bar = pair ? pairLeaderBarrier(rewriter, loc, adaptor.getBar())
                     : adaptor.getBar();
    if (op.getSync())
      barrier(rewriter, loc); // earlier readers of the tile are done
    ifThen(rewriter, loc, issue, [&] {
      Value state;
      if (op.getSync()) {
        int64_t bytes = txlgpu::getSharedBytes(op.getDst().getType());
        state = NVVM::MBarrierArriveExpectTxOp::create(
                    rewriter, loc, rewriter.getI64Type(), adaptor.getBar(),
                    i32Const(rewriter, loc, bytes),
                    NVVM::MemScopeKindAttr::get(getContext(),
                                                NVVM::MemScopeKind::CTA),
                    rewriter.getBoolAttr(false), Value())
                    .getRes();
      }
      for (const txlgpu::TMABoxes::Copy &copy : boxes->copies) {
        SmallVector<Value> at =
            boxCoords(rewriter, loc, adaptor.getCoords(), copy);
        Value dst = boxAddress(rewriter, loc, adaptor.getDst(), copy);
        // A multicast names shared::cluster addresses; the calling CTA's
        // own offset is the one every destination CTA receives at.
        if (mask || pair)
          dst = LLVM::AddrSpaceCastOp::create(
              rewriter, loc,
              LLVM::LLVMPointerType::get(rewriter.getContext(),
                                         kSharedClusterAddressSpace),
              dst);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            rewriter, loc, dst, adaptor.getDesc(), at, bar,
            /*im2colOffsets=*/ValueRange(), mask,
            /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
            /*isCTAOnly=*/!mask && !pair,
            /*group=*/
            pair ? NVVM::CTAGroupKindAttr::get(getContext(),
                                               NVVM::CTAGroupKind::CTA_2)
                 : NVVM::CTAGroupKindAttr(),
            /*predicate=*/Value());
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

/// txl.tma_gather, one TMA copy per destination row and column chunk (a
/// box one row high and one chunk wide; the descriptor's box, see
/// AssignSharedLayouts). The copy of row i goes to the unswizzled address
/// of the row's first element, chunk base + i * chunk row bytes: TMA
/// swizzles by shared-memory address bits, so a one-row box there lands
/// where a whole-tile box puts row i. Each copy is issued by a thread
/// that holds the row offset (the first of its replicas, once per
/// distinct element of its registers). The same form serves sm_100a
/// (tile::gather4 would move four rows per copy, but needs the four
/// offsets in one thread).
struct TMAGatherOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMAGatherOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMAGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemDescType tile = op.getDst().getType();
    FailureOr<txlgpu::TMABoxes> boxes = tileBoxes(op, tile);
    if (failed(boxes))
      return failure();
    // Column chunks of all rows, one box wide each.
    unsigned elemBytes =
        std::max(1u, tile.getElementType().getIntOrFloatBitWidth() / 8);
    int64_t boxCols = boxes->box.back();
    int64_t chunks = tile.getShape().back() / boxCols;
    int64_t chunkBytes = tile.getShape().front() * boxCols * elemBytes;
    auto rowsTy = cast<RankedTensorType>(op.getRows().getType());
    auto map = txlgpu::getLayoutMap(rowsTy);
    if (!map)
      return op.emitOpError("row offsets have no register layout: ") << rowsTy;
    int64_t rowBytes = boxCols * elemBytes;
    if (rowBytes % 128)
      return op.emitOpError("a row of ")
             << rowBytes
             << " bytes cannot be one TMA copy: the shared destination must "
                "be 128-byte aligned";
    Location loc = op.getLoc();
    SmallVector<Value> regs = unpackTensor(rewriter, loc, adaptor.getRows());
    SmallVector<SmallVector<Value>> coords = allRegCoords(rewriter, loc, *map);
    Value issue = map->laneFreeMask() || map->warpFreeMask()
                      ? isFirstReplica(rewriter, loc, *map)
                      : Value();
    // Registers that hold the same element (broadcast within a thread).
    SmallVector<int> distinct;
    llvm::DenseSet<int64_t> seen;
    for (int r = 0; r < map->numRegs(); ++r)
      if (seen.insert(map->regCoord(r)[0]).second)
        distinct.push_back(r);
    auto body = [&] {
      for (int r : distinct) {
        Value rowAt = LLVM::MulOp::create(rewriter, loc, coords[r][0],
                                          i32Const(rewriter, loc, rowBytes));
        for (int64_t c = 0; c < chunks; ++c) {
          Value bytes = rowAt;
          if (c)
            bytes = LLVM::AddOp::create(
                rewriter, loc, rowAt, i32Const(rewriter, loc, c * chunkBytes));
          Value dst = LLVM::GEPOp::create(
              rewriter, loc, adaptor.getDst().getType(), rewriter.getI8Type(),
              adaptor.getDst(), ValueRange{bytes});
          Value col = adaptor.getCol();
          if (c)
            col = LLVM::AddOp::create(rewriter, loc, col,
                                      i32Const(rewriter, loc, c * boxCols));
          NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
              rewriter, loc, dst, adaptor.getDesc(), ValueRange{col, regs[r]},
              adaptor.getBar(), /*im2colOffsets=*/ValueRange(),
              /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
              NVVM::TMALoadMode::TILE, /*isCTAOnly=*/true,
              /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
        }
      }
    };
    if (issue)
      ifThen(rewriter, loc, issue, body);
    else
      body();
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
    FailureOr<txlgpu::TMABoxes> boxes = tileBoxes(op, op.getSrc().getType());
    if (failed(boxes))
      return failure();
    Location loc = op.getLoc();
    std::optional<NVVM::TMAReduxKind> reduce;
    if (op.getReduce())
      reduce = NVVM::symbolizeTMAReduxKind(*op.getReduce());
    ifThen(rewriter, loc, isWarpGroupLeader(rewriter, loc, op), [&] {
      for (const txlgpu::TMABoxes::Copy &copy : boxes->copies) {
        SmallVector<Value> at =
            boxCoords(rewriter, loc, adaptor.getCoords(), copy);
        Value src = boxAddress(rewriter, loc, adaptor.getSrc(), copy);
        if (reduce)
          NVVM::CpAsyncBulkTensorReduceOp::create(
              rewriter, loc, adaptor.getDesc(), src, *reduce,
              NVVM::TMAStoreMode::TILE, at, /*l2CacheHint=*/Value());
        else
          NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
              rewriter, loc, adaptor.getDesc(), src, at,
              /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
              /*predicate=*/Value());
      }
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

/// Every thread where `pred` holds (all of them without one) asks L2 for
/// the range: the caller chose the issuing threads, as with a plain store.
struct PrefetchL2OpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::PrefetchL2Op> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::PrefetchL2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto prefetch = [&] {
      NVVM::CpAsyncBulkPrefetchOp::create(rewriter, loc, adaptor.getPtr(),
                                          adaptor.getBytes(),
                                          /*l2CacheHint=*/Value());
    };
    if (Value pred = adaptor.getPred())
      ifThen(rewriter, loc, pred, prefetch);
    else
      prefetch();
    rewriter.eraseOp(op);
    return success();
  }
};

/// tensormap.replace elemtype by element width: TMA moves bits, so every
/// type travels as the unsigned integer of its width (.u8 0, .u16 1,
/// .u32 2, .u64 4); zero fill is all-zero bits for every type.
int tensorMapElemType(unsigned bytes) {
  switch (bytes) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 4:
    return 2;
  case 8:
    return 4;
  default:
    return -1;
  }
}

struct MakeTensorDescOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::MakeTensorDescOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MakeTensorDescOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using txlgpu::TXLGPUDialect;
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto smemOffset =
        op->getAttrOfType<IntegerAttr>(TXLGPUDialect::kSharedOffsetAttr);
    auto globalOffset =
        op->getAttrOfType<IntegerAttr>(TXLGPUDialect::kGlobalScratchOffsetAttr);
    auto swizzle =
        op->getAttrOfType<IntegerAttr>(TXLGPUDialect::kTMASwizzleAttr);
    auto box = op->getAttrOfType<DenseI64ArrayAttr>(TXLGPUDialect::kTMABoxAttr);
    auto ctaBytes = module ? module->getAttrOfType<IntegerAttr>(
                                 TXLGPUDialect::kGlobalScratchBytesAttr)
                           : IntegerAttr();
    ArrayRef<int64_t> block = op.getType().getBlockShape();
    int rank = int(block.size());
    if (!smemOffset || !globalOffset || !swizzle || !box || !ctaBytes ||
        !adaptor.getScratch() || box.size() != block.size())
      return op.emitError("make_tensor_desc needs its TMA layout and its "
                          "shared and global scratch slots (run "
                          "txlgpu-assign-shared-layouts and "
                          "txlgpu-allocate-shared-memory first, on a kernel)");
    unsigned bytes = op.getType().getElementType().getIntOrFloatBitWidth() / 8;
    int swizzleMode = ::txl::tensorMapSwizzleMode(swizzle.getInt());
    int elemType = tensorMapElemType(bytes);
    if (swizzleMode < 0 || elemType < 0)
      return op.emitError("no TMA encoding for a ")
             << swizzle.getInt() << "-byte swizzle of " << bytes
             << "-byte elements";
    int warps = 4;
    if (auto attr =
            module->getAttrOfType<IntegerAttr>(TXLGPUDialect::kNumWarpsAttr))
      warps = int(attr.getInt());
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type(),
         i64 = rewriter.getI64Type();

    // This warpgroup's slots: shared at the op's offset, global in the
    // CTA's area of the scratch buffer (CTAs in launch order).
    Value group = warpGroupId(rewriter, loc);
    Value groupBytes =
        LLVM::MulOp::create(rewriter, loc, group, i32Const(rewriter, loc, 128));
    Value smem = LLVM::GEPOp::create(
        rewriter, loc, sharedMemoryBase(rewriter, loc, op).getType(), i8,
        sharedMemoryBase(rewriter, loc, op),
        ValueRange{
            LLVM::AddOp::create(rewriter, loc, groupBytes,
                                i32Const(rewriter, loc, smemOffset.getInt()))});
    Value cta = NVVM::BlockIdZOp::create(rewriter, loc, i32);
    cta = LLVM::MulOp::create(rewriter, loc, cta,
                              NVVM::GridDimYOp::create(rewriter, loc, i32));
    cta = LLVM::AddOp::create(rewriter, loc, cta,
                              NVVM::BlockIdYOp::create(rewriter, loc, i32));
    cta = LLVM::MulOp::create(rewriter, loc, cta,
                              NVVM::GridDimXOp::create(rewriter, loc, i32));
    cta = LLVM::AddOp::create(rewriter, loc, cta,
                              NVVM::BlockIdXOp::create(rewriter, loc, i32));
    Value offset = LLVM::MulOp::create(
        rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, cta),
        i64Const(rewriter, loc, ctaBytes.getInt()));
    offset = LLVM::AddOp::create(
        rewriter, loc, offset,
        LLVM::ZExtOp::create(
            rewriter, loc, i64,
            LLVM::AddOp::create(
                rewriter, loc, groupBytes,
                i32Const(rewriter, loc, globalOffset.getInt()))));
    Value scratch = adaptor.getScratch();
    Value global = LLVM::GEPOp::create(rewriter, loc, scratch.getType(), i8,
                                       scratch, ValueRange{offset});

    Value inGroup =
        LLVM::URemOp::create(rewriter, loc, threadIdX(rewriter, loc),
                             i32Const(rewriter, loc, warps * 32));
    Value firstWarp =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, inGroup,
                             i32Const(rewriter, loc, 32));
    ifThen(rewriter, loc, firstWarp, [&] {
      Value lane = laneId(rewriter, loc);
      Value word = LLVM::GEPOp::create(rewriter, loc, smem.getType(), i32, smem,
                                       ValueRange{lane});
      LLVM::StoreOp::create(rewriter, loc, i32Const(rewriter, loc, 0), word);
      NVVM::SyncWarpOp::create(rewriter, loc, i32Const(rewriter, loc, -1));
      Value leader =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane,
                               i32Const(rewriter, loc, 0));
      ifThen(rewriter, loc, leader, [&] {
        // Dimensions are innermost first in a tensor map.
        auto dim = [&](int i) { return rank - 1 - i; };
        emitTensorMapReplace(
            rewriter, loc, smem, "global_address", std::nullopt,
            LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getBase()));
        emitTensorMapReplace(rewriter, loc, smem, "rank", std::nullopt, Value(),
                             rank - 1);
        for (int i = 0; i < rank; ++i)
          emitTensorMapReplace(rewriter, loc, smem, "box_dim", i,
                               i32Const(rewriter, loc, box[dim(i)]));
        for (int i = 0; i < rank; ++i)
          emitTensorMapReplace(rewriter, loc, smem, "global_dim", i,
                               adaptor.getShape()[dim(i)]);
        // Strides in bytes of the outer dimensions (the innermost is the
        // element size itself).
        for (int i = 0; i + 1 < rank; ++i)
          emitTensorMapReplace(
              rewriter, loc, smem, "global_stride", i,
              LLVM::MulOp::create(rewriter, loc,
                                  adaptor.getStrides()[dim(i + 1)],
                                  i64Const(rewriter, loc, bytes)));
        for (int i = 0; i < rank; ++i)
          emitTensorMapReplace(rewriter, loc, smem, "element_stride", i,
                               i32Const(rewriter, loc, 1));
        emitTensorMapReplace(rewriter, loc, smem, "elemtype", std::nullopt,
                             Value(), elemType);
        emitTensorMapReplace(rewriter, loc, smem, "interleave_layout",
                             std::nullopt, Value(), 0);
        emitTensorMapReplace(rewriter, loc, smem, "swizzle_mode", std::nullopt,
                             Value(), swizzleMode);
        emitTensorMapReplace(rewriter, loc, smem, "fill_mode", std::nullopt,
                             Value(), 0);
      });
      // The warp reconverges before the .sync.aligned copy.
      NVVM::SyncWarpOp::create(rewriter, loc, i32Const(rewriter, loc, -1));
      emitTensorMapCopyRelease(rewriter, loc, global, smem);
    });
    barrier(rewriter, loc);
    Value generic = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        global);
    NVVM::FenceProxyAcquireOp::create(rewriter, loc, NVVM::MemScopeKind::GPU,
                                      generic, i32Const(rewriter, loc, 128));
    rewriter.replaceOp(op, generic);
    return success();
  }
};

} // namespace

void mlir::txl::populateTMAOpPatterns(TXLTypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<TMALoadOpToLLVM, TMAGatherOpToLLVM, TMAStoreOpToLLVM,
               TMAStoreWaitOpToLLVM, MakeTensorDescOpToLLVM>(tc);
  patterns.add<PrefetchL2OpToLLVM>(tc);
}
