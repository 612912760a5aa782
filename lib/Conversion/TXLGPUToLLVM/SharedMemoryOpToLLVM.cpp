//===- SharedMemoryOpToLLVM.cpp - explicit shared buffers and mbarriers ---===//
//
// The txl.* shared-memory layer: buffers are pointers into the CTA's shared
// window at the offsets AllocateSharedMemory chose; elements move between
// registers and a tile by the tile's linear layout (getSharedOffsets), the
// same map wgmma descriptors and TMA swizzles are derived from. mbarriers
// are initialized by thread 0 at their (top-level) allocation.
//
//===----------------------------------------------------------------------===//
#include "InlinePTX.h"
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::MemDescType;

namespace {

int64_t byteWidth(Type elem) {
  return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
}

Value gepBytes(OpBuilder &b, Location loc, Value base, Value bytes) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{bytes});
}

/// Per-thread element offset of a tensor's lane/warp part in a tile.
struct TileAccess {
  txlgpu::LayoutMap map;
  txlgpu::SharedOffsets offsets;
  Value threadOffset;
  int64_t threadAlign; ///< largest power of two dividing every thread part
  int64_t threadBits;  ///< every bit some thread part may set
};

FailureOr<TileAccess> tileAccess(OpBuilder &b, Location loc, Operation *op,
                                 RankedTensorType tensorTy,
                                 MemDescType tileTy) {
  auto map = txlgpu::getLayoutMap(tensorTy);
  auto offsets = txlgpu::getSharedOffsets(tileTy);
  if (!map || !offsets || tensorTy.getShape() != tileTy.getShape())
    return op->emitOpError("cannot lay out ") << tensorTy << " in " << tileTy;
  SmallVector<int64_t> laneTable, warpTable;
  for (const Coord &c : map->laneBases)
    laneTable.push_back(offsets->offsetOf(c));
  for (const Coord &c : map->warpBases)
    warpTable.push_back(offsets->offsetOf(c));
  Value thread =
      LLVM::XOrOp::create(b, loc, xorTable(b, loc, laneId(b, loc), laneTable),
                          xorTable(b, loc, warpId(b, loc), warpTable));
  int64_t align = 16 / byteWidth(tensorTy.getElementType());
  int64_t bits = 0;
  for (int64_t v : llvm::concat<int64_t>(laneTable, warpTable)) {
    bits |= v;
    while (align > 1 && v % align)
      align /= 2;
  }
  return TileAccess{*map, *offsets, thread, align, bits};
}

/// Registers [r, r + n) that sit at consecutive tile offsets from an
/// n-aligned start: the widest such n (a power of two) up to `maxVec`.
int64_t runLength(const TileAccess &t, int r, int numRegs, int64_t maxVec) {
  int64_t start = t.offsets.offsetOf(t.map.regCoord(r));
  int64_t vec = 1;
  while (vec < maxVec && start % (2 * vec) == 0 && r + 2 * vec <= numRegs) {
    for (int64_t j = vec; j < 2 * vec; ++j)
      if (t.offsets.offsetOf(t.map.regCoord(r + j)) != start + j)
        return vec;
    vec *= 2;
  }
  return vec;
}

/// The element at threadOffset ^ start. Bits of `start` that no thread
/// part sets cannot interact with threadOffset, so they are added after the
/// xor instead: they become the access's immediate offset, and runs that
/// differ only in them (the rows 8 apart of a wgmma accumulator, a tile's
/// second swizzle box) share one xor. That matters in loops: LLVM hoists
/// each distinct loop-invariant xor and keeps it live in a register (a
/// [64, 64] fp32 tile stored from an accumulator has 16 runs but 4
/// distinct xors under 128-byte swizzling; the 12 others spilled in
/// flash_attn_bwd.py's loop).
Value elementPtr(OpBuilder &b, Location loc, Value base, Type elem,
                 const TileAccess &t, int64_t start) {
  int64_t mixed = start & t.threadBits;
  int64_t disjoint = start & ~t.threadBits;
  Value index = t.threadOffset;
  if (mixed)
    index = LLVM::XOrOp::create(b, loc, index, i32Const(b, loc, mixed));
  Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), elem, base,
                                  ValueRange{index});
  if (disjoint)
    ptr = LLVM::GEPOp::create(b, loc, base.getType(), elem, ptr,
                              ValueRange{i32Const(b, loc, disjoint)});
  return ptr;
}

template <typename Op>
struct AllocBaseToLLVM : public ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, sharedAllocBase(rewriter, op.getLoc(), op));
    return success();
  }
};

struct MemDescIndexOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::MemDescIndexOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  /// A stage of a tensor-memory array: its stages lie side by side in
  /// columns (32 bits each; 16-bit elements two to a column).
  LogicalResult indexTensorMemory(txlgpu::MemDescIndexOp op, OpAdaptor adaptor,
                                  ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MemDescType src = op.getSrc().getType();
    if (src.getShape().size() != 3)
      return op.emitOpError("indexes stages of a tensor-memory array only");
    int64_t columns =
        src.getShape()[2] * src.getElementType().getIntOrFloatBitWidth() / 32;
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                          adaptor.getSrc());
    Value offset = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                       i32Const(rewriter, loc, columns));
    Value address = LLVM::AddOp::create(rewriter, loc, base, offset);
    rewriter.replaceOp(op, LLVM::IntToPtrOp::create(rewriter, loc,
                                                    adaptor.getSrc().getType(),
                                                    address));
    return success();
  }
  LogicalResult
  matchAndRewrite(txlgpu::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto src = op.getSrc().getType();
    if (txlgpu::isTensorMemory(src))
      return indexTensorMemory(op, adaptor, rewriter);
    // A stage of an allocation array, or a row of a tile's leading dim.
    int64_t stride;
    if (txlgpu::isBufferArray(op.getSrc())) {
      stride = txlgpu::getStageStride(src);
    } else {
      auto offsets = txlgpu::getSharedOffsets(src);
      if (!offsets || src.getShape()[0] < 2)
        return op.emitOpError("cannot index ") << src;
      // Rows of the leading dimension are a fixed stride apart only when
      // the layout keeps that dimension outermost.
      int64_t rowElems = offsets->bitOffset[0][0];
      for (auto [bit, off] : llvm::enumerate(offsets->bitOffset[0]))
        if (off != rowElems << bit)
          return op.emitOpError("rows of ")
                 << src << " are not evenly spaced; cannot index it";
      stride = rowElems * byteWidth(src.getElementType());
    }
    Value bytes = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                      i32Const(rewriter, loc, stride));
    rewriter.replaceOp(op, gepBytes(rewriter, loc, adaptor.getSrc(), bytes));
    return success();
  }
};

struct MemDescViewOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::MemDescViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MemDescViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = op.getSrc().getType();
    if (txlgpu::isTensorMemory(src))
      return sliceTensorMemory(op, adaptor, rewriter);
    // A transpose renames dimensions (its encoding's order follows): the
    // bytes and so the address stay.
    ArrayRef<int32_t> perm = op.getPermutation();
    for (auto [i, d] : llvm::enumerate(perm))
      if (d != int32_t(i)) {
        rewriter.replaceOp(op, adaptor.getSrc());
        return success();
      }
    if (src.getShape() != op.getType().getShape() && !sliceKeepsLayout(op)) {
      if (!insideSwizzleSpan(op))
        return op.emitOpError("this slice of ") << src << " is not supported";
      if (Operation *reader = softwareReader(op.getResult()))
        return op.emitOpError("this slice of ")
               << src
               << " cuts inside a swizzle span; only tl.dot can read such a "
                  "slice (its matrix descriptors swizzle by address, as the "
                  "whole tile does), not "
               << reader->getName();
      return shiftTo(op, adaptor, rewriter, spanSliceBytes(op));
    }
    if (src.getShape() == op.getType().getShape() || op.getStart() == 0) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    auto offsets = txlgpu::getSharedOffsets(src);
    Coord start(src.getShape().size(), 0);
    start[op.getDim()] = op.getStart();
    int64_t bytes = offsets->offsetOf(start) * byteWidth(src.getElementType());
    return shiftTo(op, adaptor, rewriter, bytes);
  }

  static LogicalResult shiftTo(txlgpu::MemDescViewOp op, OpAdaptor adaptor,
                               ConversionPatternRewriter &rewriter,
                               int64_t bytes) {
    Location loc = op.getLoc();
    rewriter.replaceOp(op, gepBytes(rewriter, loc, adaptor.getSrc(),
                                    i32Const(rewriter, loc, bytes)));
    return success();
  }

  /// Columns of a [128, N] tensor-memory buffer (tmem_slice): the address
  /// moves by the 32-bit columns skipped.
  LogicalResult sliceTensorMemory(txlgpu::MemDescViewOp op, OpAdaptor adaptor,
                                  ConversionPatternRewriter &rewriter) const {
    MemDescType src = op.getSrc().getType();
    if (src.getShape().size() != 2 || op.getDim() != 1)
      return op.emitOpError("slices columns of a [128, N] tensor-memory "
                            "buffer only");
    Location loc = op.getLoc();
    int64_t columns =
        op.getStart() * src.getElementType().getIntOrFloatBitWidth() / 32;
    Value address = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI32Type(), adaptor.getSrc());
    address = LLVM::AddOp::create(rewriter, loc, address,
                                  i32Const(rewriter, loc, columns));
    rewriter.replaceOp(op, LLVM::IntToPtrOp::create(rewriter, loc,
                                                    adaptor.getSrc().getType(),
                                                    address));
    return success();
  }

  /// A slice of the inner dimension narrower than one swizzle span (K = 32
  /// of a [128, 64] fp16 tile with 128-byte rows), inside one span (the
  /// front end makes a slice start at a multiple of its power-of-two
  /// length, so it never straddles two). Its elements are not the source's
  /// layout shifted by a constant, but the hardware swizzles by address
  /// bits: through a matrix descriptor the slice is the tile that starts
  /// start * elem bytes into the span, as a K step of the whole tile is.
  static bool insideSwizzleSpan(txlgpu::MemDescViewOp op) {
    auto src = op.getSrc().getType();
    auto enc =
        dyn_cast_or_null<txlgpu::NVMMASharedEncodingAttr>(src.getEncoding());
    if (!enc || !txlgpu::getSharedOffsets(src) || src.getShape().size() != 2 ||
        enc.getSwizzleBytes() == 0 || op.getDim() != enc.getOrder()[0])
      return false;
    int64_t elemBytes = byteWidth(src.getElementType());
    int64_t sliceBytes = op.getType().getShape()[op.getDim()] * elemBytes;
    return sliceBytes < enc.getSwizzleBytes() && sliceBytes % 16 == 0 &&
           (op.getStart() * elemBytes) % sliceBytes == 0;
  }

  /// The byte offset of such a slice: its span's, then its place in a row.
  static int64_t spanSliceBytes(txlgpu::MemDescViewOp op) {
    auto src = op.getSrc().getType();
    auto enc = cast<txlgpu::NVMMASharedEncodingAttr>(src.getEncoding());
    int64_t elemBytes = byteWidth(src.getElementType());
    int64_t span = enc.getSwizzleBytes() / elemBytes;
    Coord spanStart(2, 0);
    spanStart[op.getDim()] = op.getStart() / span * span;
    return txlgpu::getSharedOffsets(src)->offsetOf(spanStart) * elemBytes +
           op.getStart() % span * elemBytes;
  }

  /// A reader of `view` (through transposes and further views) that
  /// computes element addresses itself instead of reading the tile as an
  /// MMA operand through a matrix descriptor; null if none.
  static Operation *softwareReader(Value view) {
    for (Operation *user : view.getUsers()) {
      if (isa<txlgpu::WarpGroupDotOp, txlgpu::TCGen05MMAOp>(user))
        continue;
      if (auto inner = dyn_cast<txlgpu::MemDescViewOp>(user)) {
        bool transposeOnly = inner.getType().getNumElements() ==
                             inner.getSrc().getType().getNumElements();
        if (!transposeOnly)
          return user;
        if (Operation *reader = softwareReader(inner.getResult()))
          return reader;
        continue;
      }
      return user;
    }
    return nullptr;
  }

  /// A slice is the source's layout shifted by a constant when it cuts the
  /// outer dimension of a tile whose rows fit one swizzle row, at a
  /// multiple of the 1024-byte swizzle period; or when it cuts the inner
  /// dimension of a wider tile at whole swizzle spans (such a tile is
  /// stored span by span, each span all rows deep: the slice is a run of
  /// whole spans).
  static bool sliceKeepsLayout(txlgpu::MemDescViewOp op) {
    auto src = op.getSrc().getType();
    auto enc =
        dyn_cast_or_null<txlgpu::NVMMASharedEncodingAttr>(src.getEncoding());
    auto offsets = txlgpu::getSharedOffsets(src);
    if (!enc || !offsets || src.getShape().size() != 2)
      return false;
    unsigned inner = enc.getOrder()[0];
    int64_t elemBytes = byteWidth(src.getElementType());
    int64_t rowBytes = src.getShape()[inner] * elemBytes;
    int64_t width = std::max<int64_t>(enc.getSwizzleBytes(), 16);
    if (op.getDim() != inner)
      return rowBytes <= width && (op.getStart() * rowBytes) % 1024 == 0;
    int64_t span = enc.getSwizzleBytes() / elemBytes;
    int64_t length = op.getType().getShape()[inner];
    int64_t spanBytes = src.getShape()[1 - inner] * enc.getSwizzleBytes();
    return span > 0 && op.getStart() % span == 0 && length % span == 0 &&
           spanBytes % 1024 == 0;
  }
};

/// A reshape keeps every element in place (AssignSharedLayouts gave it the
/// layout that says so): the address is the source's.
struct MemDescReshapeOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::MemDescReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MemDescReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().getEncoding())
      return op.emitOpError("has no shared layout");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct SmemLoadOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::SmemLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::SmemLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto regs = readTile(rewriter, op.getLoc(), op, adaptor.getSrc(),
                         op.getType(), op.getSrc().getType());
    if (failed(regs))
      return failure();
    rewriter.replaceOp(op,
                       packTensor(rewriter, op.getLoc(), *getTypeConverter(),
                                  op.getType(), *regs));
    return success();
  }
};

struct SmemStoreOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::SmemStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::SmemStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getPred())
      return writeGuarded(op, adaptor, rewriter);
    if (op.getUnsynced()) {
      // The kernel orders the write (txl.smem_store(..., sync=False)).
      SmallVector<Value> regs =
          unpackTensor(rewriter, op.getLoc(), adaptor.getValue());
      if (failed(storeTile(rewriter, op.getLoc(), op, adaptor.getDst(), regs,
                           op.getValue().getType(), op.getDst().getType())))
        return failure();
    } else if (failed(writeSharedTile(rewriter, op.getLoc(), op,
                                      adaptor.getDst(), adaptor.getValue(),
                                      op.getValue().getType(),
                                      op.getDst().getType()))) {
      return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// Only the threads whose predicate holds store, with plain st.shared
  /// (stmatrix is warp-collective: it cannot sit in a divergent branch);
  /// the synchronization around the write stays outside the branch.
  LogicalResult writeGuarded(txlgpu::SmemStoreOp op, OpAdaptor adaptor,
                             ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    auto tensorTy = cast<RankedTensorType>(op.getValue().getType());
    bool sync = !op.getUnsynced();
    if (sync)
      barrier(rewriter, loc);
    SmallVector<Value> regs = unpackTensor(rewriter, loc, adaptor.getValue());
    LogicalResult walked = success();
    ifThen(rewriter, loc, adaptor.getPred(), [&] {
      walked = forEachSharedRun(
          rewriter, loc, op, adaptor.getDst(), tensorTy, op.getDst().getType(),
          /*maxVec=*/16, [&](int r, int64_t vec, Value ptr) {
            storeSharedRun(rewriter, loc, ptr, ArrayRef(regs).slice(r, vec));
          });
    });
    if (failed(walked))
      return failure();
    if (sync) {
      fenceAsyncProxy(rewriter, loc);
      barrier(rewriter, loc);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarAllocOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::MBarAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MBarAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = sharedAllocBase(rewriter, loc, op);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       threadIdX(rewriter, loc),
                                       i32Const(rewriter, loc, 0));
    Value count = i32Const(rewriter, loc, op.getArriveCount());
    for (int64_t s = 0; s < op.getType().getShape()[0]; ++s) {
      Value bar = gepBytes(rewriter, loc, base, i32Const(rewriter, loc, 8 * s));
      NVVM::MBarrierInitOp::create(rewriter, loc, bar, count, first);
    }
    // The initialized barriers are visible to every thread and to the async
    // proxy (TMA completes on them) before anyone uses them.
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    fenceAsyncProxy(rewriter, loc);
    if (clusterSizeOf(op) > 1) {
      // Peers multicast into this CTA and arrive on its barriers: the
      // whole cluster waits until every CTA's barriers are initialized.
      NVVM::ClusterArriveOp::create(rewriter, loc, rewriter.getUnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, loc, rewriter.getUnitAttr());
    } else {
      ctaBarrier(rewriter, loc);
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

NVVM::MemScopeKindAttr ctaScope(MLIRContext *ctx) {
  return NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA);
}

/// One thread per warpgroup arrives and announces the transaction bytes.
struct MBarExpectOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::MBarExpectOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MBarExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = andPred(rewriter, loc, isWarpGroupLeader(rewriter, loc, op),
                         adaptor.getPred());
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, Type(), adaptor.getBar(), adaptor.getBytes(),
        ctaScope(getContext()), rewriter.getBoolAttr(false), pred);
    rewriter.eraseOp(op);
    return success();
  }
};

/// On an mbar_wait whose barrier cp.async copies may complete: the data
/// they wrote (generic proxy) must be fenced before a wgmma or TMA store
/// reads it (async proxy). A producer that waits for its copies with
/// txl.async_load_wait fences there; one that arrives with
/// track_async_op=True cannot (the arrival fires when the copies land, no
/// thread of its runs then), so the waiting thread fences after the wait.
constexpr llvm::StringLiteral kFenceAfterWaitAttr =
    "txlgpu.fence_after_async_copies";

struct MBarWaitOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::MBarWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MBarWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value parity = LLVM::AndOp::create(rewriter, loc, adaptor.getPhase(),
                                       i32Const(rewriter, loc, 1));
    if (std::optional<int64_t> bound = debugSyncTimeoutNs(op)) {
      emitBoundedMBarrierWait(rewriter, loc, op, adaptor.getBar(), parity,
                              *bound);
    } else {
      // try_wait suspends up to the hint (ns) per probe.
      spinUntil(rewriter, loc, [&](OpBuilder &b) {
        return emitMBarrierTryWaitOnce(b, loc, adaptor.getBar(), parity,
                                       /*suspendHintNs=*/1000000);
      });
    }
    if (op->hasAttr(kFenceAfterWaitAttr))
      fenceAsyncProxy(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarArriveOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::MBarArriveOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::MBarArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bar = adaptor.getBar();
    auto arrive = [&] {
      if (op.getTrackAsyncOp()) {
        // .noinc: the deferred arrival counts against the barrier's
        // arrive count (mbar_alloc's count includes it), as a plain
        // arrival does.
        NVVM::CpAsyncMBarrierArriveOp::create(rewriter, loc, bar,
                                              /*noinc=*/true);
        return;
      }
      if (!adaptor.getCta()) {
        NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), bar, Value(),
                                       ctaScope(getContext()));
        return;
      }
      // The barrier at the same offset in the peer CTA. The arrival keeps
      // the default CTA-scope release: what it announces is that reads
      // (wgmma, retired by a wait) are done, nothing needs publishing to
      // the peer, and a cluster-scope release stalls the arriving warp
      // (measured: it halved ladder step 9's throughput).
      Value remote = NVVM::MapaOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(getContext(), kSharedClusterAddressSpace),
          bar, adaptor.getCta());
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote, Value(),
                                     ctaScope(getContext()));
    };
    if (adaptor.getPred())
      ifThen(rewriter, loc, adaptor.getPred(), arrive);
    else
      arrive();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

Value mlir::txl::xorTable(OpBuilder &b, Location loc, Value id,
                          ArrayRef<int64_t> table) {
  Value acc = i32Const(b, loc, 0);
  for (auto [bit, value] : llvm::enumerate(table)) {
    if (value == 0)
      continue;
    Value set = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, bit)),
        i32Const(b, loc, 1));
    acc = LLVM::XOrOp::create(
        b, loc, acc, LLVM::MulOp::create(b, loc, set, i32Const(b, loc, value)));
  }
  return acc;
}

Value mlir::txl::sharedAllocBase(OpBuilder &b, Location loc, Operation *op) {
  int64_t offset = 0;
  if (auto attr = op->getAttrOfType<IntegerAttr>(
          txlgpu::TXLGPUDialect::kSharedOffsetAttr))
    offset = attr.getInt();
  Value base = sharedMemoryBase(b, loc, op);
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

void mlir::txl::storeSharedRun(OpBuilder &b, Location loc, Value ptr,
                               ArrayRef<Value> regs) {
  if (regs.size() == 1) {
    LLVM::StoreOp::create(b, loc, regs[0], ptr);
    return;
  }
  Type elem = regs[0].getType();
  Value v = LLVM::UndefOp::create(
      b, loc, VectorType::get({int64_t(regs.size())}, elem));
  for (auto [j, r] : llvm::enumerate(regs))
    v = LLVM::InsertElementOp::create(b, loc, v, r, i32Const(b, loc, j));
  LLVM::StoreOp::create(b, loc, v, ptr, regs.size() * byteWidth(elem));
}

void mlir::txl::loadSharedRun(OpBuilder &b, Location loc, Value ptr, Type elem,
                              int64_t n, SmallVectorImpl<Value> &out) {
  if (n == 1) {
    out.push_back(LLVM::LoadOp::create(b, loc, elem, ptr));
    return;
  }
  Value v = LLVM::LoadOp::create(b, loc, VectorType::get({n}, elem), ptr,
                                 n * byteWidth(elem));
  for (int64_t j = 0; j < n; ++j)
    out.push_back(
        LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, j)));
}

LogicalResult
mlir::txl::forEachSharedRun(OpBuilder &b, Location loc, Operation *op,
                            Value base, RankedTensorType tensorTy,
                            MemDescType tileTy, int64_t maxVec,
                            function_ref<void(int, int64_t, Value)> each) {
  auto access = tileAccess(b, loc, op, tensorTy, tileTy);
  if (failed(access))
    return failure();
  Type elem = storageType(tensorTy.getElementType());
  int numRegs = access->map.numRegs();
  for (int r = 0; r < numRegs;) {
    int64_t vec =
        runLength(*access, r, numRegs, std::min(maxVec, access->threadAlign));
    int64_t start = access->offsets.offsetOf(access->map.regCoord(r));
    each(r, vec, elementPtr(b, loc, base, elem, *access, start));
    r += vec;
  }
  return success();
}

/// Registers are read from the tile in vector runs where the layouts allow.
FailureOr<SmallVector<Value>> mlir::txl::readTile(OpBuilder &b, Location loc,
                                                  Operation *op, Value base,
                                                  RankedTensorType tensorTy,
                                                  MemDescType tileTy) {
  Type elem = storageType(tensorTy.getElementType());
  SmallVector<Value> regs;
  LogicalResult walked =
      forEachSharedRun(b, loc, op, base, tensorTy, tileTy, /*maxVec=*/16,
                       [&](int, int64_t vec, Value ptr) {
                         loadSharedRun(b, loc, ptr, elem, vec, regs);
                       });
  if (failed(walked))
    return failure();
  return regs;
}

LogicalResult mlir::txl::storeTile(OpBuilder &b, Location loc, Operation *op,
                                   Value base, ArrayRef<Value> regs,
                                   RankedTensorType tensorTy,
                                   MemDescType tileTy) {
  if (storeTileByMatrices(b, loc, op, base, regs, tensorTy, tileTy))
    return success();
  return forEachSharedRun(b, loc, op, base, tensorTy, tileTy, /*maxVec=*/16,
                          [&](int r, int64_t vec, Value ptr) {
                            storeSharedRun(b, loc, ptr, regs.slice(r, vec));
                          });
}

/// The bytes may still be read by a previous use (another thread's
/// smem_load, an earlier wgmma retired by its wait), so the group
/// synchronizes first; after writing, generic-proxy stores are fenced for
/// the async proxy (wgmma, TMA store) and synchronized again.
LogicalResult mlir::txl::writeSharedTile(OpBuilder &b, Location loc,
                                         Operation *op, Value base,
                                         Value llTensor,
                                         RankedTensorType tensorTy,
                                         MemDescType tileTy) {
  barrier(b, loc);
  SmallVector<Value> regs = unpackTensor(b, loc, llTensor);
  if (failed(storeTile(b, loc, op, base, regs, tensorTy, tileTy)))
    return failure();
  fenceAsyncProxy(b, loc);
  barrier(b, loc);
  return success();
}

/// The mbar_alloc a barrier (or a stage of one) comes from, if visible.
static txlgpu::MBarAllocOp barrierRoot(Value bar) {
  while (auto idx = bar.getDefiningOp<txlgpu::MemDescIndexOp>())
    bar = idx.getSrc();
  return bar.getDefiningOp<txlgpu::MBarAllocOp>();
}

void mlir::txl::markWaitsForAsyncCopies(ModuleOp module) {
  llvm::DenseSet<Operation *> tracked;
  bool unknownRoot = false;
  module.walk([&](txlgpu::MBarArriveOp arrive) {
    if (!arrive.getTrackAsyncOp())
      return;
    if (txlgpu::MBarAllocOp root = barrierRoot(arrive.getBar()))
      tracked.insert(root);
    else
      unknownRoot = true;
  });
  if (tracked.empty() && !unknownRoot)
    return;
  UnitAttr unit = UnitAttr::get(module.getContext());
  module.walk([&](txlgpu::MBarWaitOp wait) {
    txlgpu::MBarAllocOp root = barrierRoot(wait.getBar());
    if (unknownRoot || !root || tracked.contains(root))
      wait->setAttr(kFenceAfterWaitAttr, unit);
  });
}

void mlir::txl::populateSharedMemoryOpPatterns(TXLTypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns.add<AllocBaseToLLVM<txlgpu::SmemAllocOp>, MemDescIndexOpToLLVM,
               MemDescViewOpToLLVM, MemDescReshapeOpToLLVM, SmemLoadOpToLLVM,
               SmemStoreOpToLLVM, MBarAllocOpToLLVM, MBarExpectOpToLLVM,
               MBarWaitOpToLLVM, MBarArriveOpToLLVM>(tc);
}
