//===- TensorMemoryOpToLLVM.cpp - Blackwell tensor memory -----------------===//
//
// Tensor memory (TMEM, sm_100a) is a per-SM array of 128 lanes x 512
// columns of 32 bits that the tcgen05 tensor cores write their
// accumulators to. It has its own address space (NVPTX 6): an address is
// (lane << 16) | column. Threads reach it only through tcgen05.ld/st, and
// only part of it: warp w of a warpgroup reaches lanes 32*(w%4) .. +31, so
// a [128, N] tile is read by whole warpgroups, each thread holding one row.
//
// TMEM is allocated explicitly: one whole warp runs tcgen05.alloc, which
// writes the address it got to shared memory, and after a CTA barrier
// every thread reads it from there. The CTA then relinquishes its permit
// to allocate (it allocates once; other CTAs on the SM may proceed), and
// before it exits it must tcgen05.dealloc the columns after a barrier
// that orders every use before it (AllocateTensorMemory places both).
//
// tcgen05.ld/st are asynchronous: tcgen05.wait::ld/st completes them, and
// tcgen05.fence::after_thread_sync / before_thread_sync order them against
// the barriers and mbarrier waits that tell threads when an MMA has
// written an accumulator or that an accumulator may be overwritten.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::LayoutMap;
using txlgpu::MemDescType;

namespace {

constexpr unsigned kTensorMemoryAddressSpace =
    unsigned(NVVM::NVVMMemorySpace::Tensor);

/// The most 32-bit columns one tcgen05.ld/st moves per thread here: wider
/// messages exist (up to 128) but only add register pressure.
constexpr int64_t kMaxMessageColumns = 32;

Type tmemPointer(MLIRContext *ctx) {
  return LLVM::LLVMPointerType::get(ctx, kTensorMemoryAddressSpace);
}

void tcgen05Fence(OpBuilder &b, Location loc, bool after) {
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          b.getContext(), after ? NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC
                                : NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC));
}

/// cta_group::2 when the kernel's MMAs pair CTAs: then warp 0 of each CTA
/// of the pair allocates (and frees) collectively, and every tcgen05
/// instruction of the kernel must name the same group.
NVVM::CTAGroupKindAttr ctaGroup(MLIRContext *ctx, bool twoCtas) {
  return NVVM::CTAGroupKindAttr::get(ctx, twoCtas ? NVVM::CTAGroupKind::CTA_2
                                                  : NVVM::CTAGroupKind::CTA_1);
}

/// Warp 0 of the CTA (the warp that allocates and frees tensor memory).
Value isWarp0(OpBuilder &b, Location loc) {
  Value warp =
      LLVM::LShrOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 5));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, warp,
                              i32Const(b, loc, 0));
}

/// Synchronizes every thread of the CTA (with a cluster, of the cluster:
/// peers' MMAs may read this CTA's memory).
void ctaOrClusterBarrier(OpBuilder &b, Location loc, Operation *op) {
  if (clusterSizeOf(op) > 1) {
    NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
    return;
  }
  ctaBarrier(b, loc);
}

struct TMemAllocOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMemAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMemAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getColumn() ||
        !op->hasAttr(txlgpu::TXLGPUDialect::kSharedOffsetAttr))
      return op.emitOpError("has no place in tensor memory (run "
                            "txlgpu-allocate-tensor-memory and "
                            "txlgpu-allocate-shared-memory first)");
    Value slot = sharedAllocBase(rewriter, loc, op);
    if (std::optional<uint32_t> columns = op.getAllocColumns()) {
      ifThen(rewriter, loc, isWarp0(rewriter, loc), [&] {
        auto group = ctaGroup(getContext(), op.getTwoCtas());
        NVVM::Tcgen05AllocOp::create(rewriter, loc, slot,
                                     i32Const(rewriter, loc, *columns), group);
        NVVM::Tcgen05RelinquishAllocPermitOp::create(rewriter, loc, group);
      });
      // The address is in shared memory once the allocating warp passes
      // the barrier; the fences order the allocation (a tcgen05 op) and
      // everyone's later tcgen05 work around it.
      tcgen05Fence(rewriter, loc, /*after=*/false);
      ctaBarrier(rewriter, loc);
      tcgen05Fence(rewriter, loc, /*after=*/true);
    }
    Value address =
        LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), slot);
    address = LLVM::AddOp::create(rewriter, loc, address,
                                  i32Const(rewriter, loc, *op.getColumn()));
    rewriter.replaceOp(op, LLVM::IntToPtrOp::create(rewriter, loc,
                                                    tmemPointer(getContext()),
                                                    address));
    return success();
  }
};

struct TMemDeallocOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::TMemDeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMemDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Every thread's reads and every MMA's writes (retired by the waits
    // that preceded the reads) are done before the columns are freed.
    tcgen05Fence(rewriter, loc, /*after=*/false);
    ctaOrClusterBarrier(rewriter, loc, op);
    tcgen05Fence(rewriter, loc, /*after=*/true);
    ifThen(rewriter, loc, isWarp0(rewriter, loc), [&] {
      NVVM::Tcgen05DeallocOp::create(rewriter, loc, adaptor.getBase(),
                                     i32Const(rewriter, loc, op.getColumns()),
                                     ctaGroup(getContext(), op.getTwoCtas()));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// How the registers of a [128, N] tensor in the 32x32b layout map to
/// TMEM: lane l of warp w holds row 32*(w%4) + l, register r the r-th
/// element of the thread's run of columns, which starts at `warpColumn`
/// (the column offset of warps beyond the first warpgroup).
struct MessageLayout {
  int64_t numRegs;
  SmallVector<int64_t> warpColumn; ///< per warp-id bit
};

FailureOr<MessageLayout> messageLayout(Operation *op, RankedTensorType type) {
  auto map = txlgpu::getLayoutMap(type);
  auto bad = [&] {
    return op->emitOpError("register layout of ")
           << type << " is not the tcgen05 32x32b message layout";
  };
  if (!map || map->laneBases.size() != 5 || map->warpBases.size() < 2)
    return bad();
  for (auto [i, basis] : llvm::enumerate(map->laneBases))
    if (basis != txlgpu::Coord{int64_t(1) << i, 0})
      return bad();
  if (map->warpBases[0] != txlgpu::Coord{32, 0} ||
      map->warpBases[1] != txlgpu::Coord{64, 0})
    return bad();
  MessageLayout layout{map->numRegs(), {0, 0}};
  for (const txlgpu::Coord &basis : ArrayRef(map->warpBases).drop_front(2)) {
    if (basis[0] != 0)
      return bad();
    layout.warpColumn.push_back(basis[1]);
  }
  for (int r = 0; r < map->numRegs(); ++r)
    if (map->regCoord(r) != txlgpu::Coord{0, r})
      return bad();
  return layout;
}

/// Address of this thread's first TMEM word: its warp's lane quarter and
/// its warp's first column (in 32-bit columns).
Value threadAddress(OpBuilder &b, Location loc, Value base,
                    const MessageLayout &layout, unsigned bits) {
  Value warp = warpId(b, loc);
  Value quarter = LLVM::AndOp::create(b, loc, warp, i32Const(b, loc, 3));
  Value lane = LLVM::ShlOp::create(b, loc, quarter, i32Const(b, loc, 21));
  SmallVector<int64_t> columns;
  for (int64_t c : layout.warpColumn)
    columns.push_back(c * bits / 32);
  Value column = xorTable(b, loc, warp, columns);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
  address = LLVM::AddOp::create(b, loc, address,
                                LLVM::OrOp::create(b, loc, lane, column));
  return address;
}

/// How the 32-bit words of a tensor in a tmem_message layout
/// (::txl::tmemMessageLayout) travel: word w = a + regsPerRep * (rep +
/// reps * slab), rep r at `columns * r` 32-bit columns, slab s (the warp's
/// second 16 lanes of a 128-row tile) at lane 16 * s; the thread's warp
/// reaches lanes 32 * (warp % 4) and, with 8 warps, its warpgroup's
/// columns from `groupColumns * (warp / 4)`.
struct MessagePlan {
  ::txl::TMemMessage msg;
  ::txl::TMemMessageShape shape;
  int64_t reps, slabs, groupColumns;
};

std::optional<MessagePlan> messagePlan(RankedTensorType type) {
  auto enc =
      dyn_cast_or_null<txlgpu::TMemMessageEncodingAttr>(type.getEncoding());
  if (!enc)
    return std::nullopt;
  std::optional<::txl::TMemMessage> msg = txlgpu::tmemMessageOf(enc);
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (!msg || bits != enc.getElemBits() ||
      !::txl::tmemMessageLayoutError(*msg, type.getShape(), enc.getNumWarps(),
                                     bits)
           .empty())
    return std::nullopt;
  MessagePlan plan{*msg, ::txl::tmemMessageShape(*msg), 0, 1, 0};
  plan.groupColumns = type.getShape()[1] / (enc.getNumWarps() / 4) * bits / 32;
  plan.reps = plan.groupColumns / plan.shape.columns;
  if (plan.shape.lanes == 16 && type.getShape()[0] == 128)
    plan.slabs = 2;
  return plan;
}

NVVM::Tcgen05LdStShapeAttr messageShapeAttr(MLIRContext *ctx,
                                            ::txl::TMemMessage msg) {
  NVVM::Tcgen05LdStShape shape = NVVM::Tcgen05LdStShape::SHAPE_32X32B;
  switch (msg) {
  case ::txl::TMemMessage::M32x32b:
    break;
  case ::txl::TMemMessage::M16x64b:
    shape = NVVM::Tcgen05LdStShape::SHAPE_16X64B;
    break;
  case ::txl::TMemMessage::M16x128b:
    shape = NVVM::Tcgen05LdStShape::SHAPE_16X128B;
    break;
  case ::txl::TMemMessage::M16x256b:
    shape = NVVM::Tcgen05LdStShape::SHAPE_16X256B;
    break;
  }
  return NVVM::Tcgen05LdStShapeAttr::get(ctx, shape);
}

/// One tcgen05.ld/st of a MessagePlan: `num` repetitions (.num) of the
/// words from `firstWord`, at lane offset `lane` and column `column` from
/// the thread's base address.
struct Message {
  int64_t firstWord, words, lane, column;
};

/// The messages that move a thread's words, at most kMaxMessageColumns
/// registers each.
SmallVector<Message> planMessages(const MessagePlan &plan) {
  int64_t perRep = plan.shape.regsPerRep;
  int64_t num = std::max<int64_t>(
      1, std::min<int64_t>(plan.reps, kMaxMessageColumns / perRep));
  SmallVector<Message> messages;
  for (int64_t slab = 0; slab < plan.slabs; ++slab)
    for (int64_t rep = 0; rep < plan.reps; rep += num)
      messages.push_back({perRep * (rep + plan.reps * slab), perRep * num,
                          16 * slab, rep * plan.shape.columns});
  return messages;
}

/// This thread's base TMEM address for a MessagePlan: its warp's lane
/// quarter and its warpgroup's columns.
Value planAddress(OpBuilder &b, Location loc, Value base,
                  const MessagePlan &plan) {
  Value warp = warpId(b, loc);
  Value quarter = LLVM::AndOp::create(b, loc, warp, i32Const(b, loc, 3));
  Value lane = LLVM::ShlOp::create(b, loc, quarter, i32Const(b, loc, 21));
  Value group = LLVM::LShrOp::create(b, loc, warp, i32Const(b, loc, 2));
  Value column =
      LLVM::MulOp::create(b, loc, group, i32Const(b, loc, plan.groupColumns));
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
  return LLVM::AddOp::create(b, loc, address,
                             LLVM::AddOp::create(b, loc, lane, column));
}

Value messageAddress(OpBuilder &b, Location loc, Value address,
                     const Message &m) {
  Value at = LLVM::AddOp::create(b, loc, address,
                                 i32Const(b, loc, (m.lane << 16) + m.column));
  return LLVM::IntToPtrOp::create(b, loc, tmemPointer(b.getContext()), at);
}

NVVM::Tcgen05LdStShapeAttr shape32x32b(MLIRContext *ctx) {
  return NVVM::Tcgen05LdStShapeAttr::get(ctx,
                                         NVVM::Tcgen05LdStShape::SHAPE_32X32B);
}

Type messageType(OpBuilder &b, int64_t words) {
  if (words == 1)
    return b.getI32Type();
  return VectorType::get({words}, b.getI32Type());
}

/// The 32-bit words of registers `regs` (16-bit elements two to a word).
SmallVector<Value> packWords(OpBuilder &b, Location loc, ArrayRef<Value> regs) {
  SmallVector<Value> words;
  Type i32 = b.getI32Type();
  unsigned bits = regs.front().getType().getIntOrFloatBitWidth();
  if (bits == 32) {
    for (Value r : regs)
      words.push_back(LLVM::BitcastOp::create(b, loc, i32, r));
    return words;
  }
  Type pair = VectorType::get({2}, regs.front().getType());
  for (size_t i = 0; i < regs.size(); i += 2) {
    Value v = LLVM::UndefOp::create(b, loc, pair);
    v = LLVM::InsertElementOp::create(b, loc, v, regs[i], i32Const(b, loc, 0));
    v = LLVM::InsertElementOp::create(b, loc, v, regs[i + 1],
                                      i32Const(b, loc, 1));
    words.push_back(LLVM::BitcastOp::create(b, loc, i32, v));
  }
  return words;
}

SmallVector<Value> unpackWords(OpBuilder &b, Location loc,
                               ArrayRef<Value> words, Type elem) {
  SmallVector<Value> regs;
  if (elem.getIntOrFloatBitWidth() == 32) {
    for (Value w : words)
      regs.push_back(LLVM::BitcastOp::create(b, loc, elem, w));
    return regs;
  }
  Type pair = VectorType::get({2}, elem);
  for (Value w : words) {
    Value v = LLVM::BitcastOp::create(b, loc, pair, w);
    for (int i = 0; i < 2; ++i)
      regs.push_back(
          LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
  }
  return regs;
}

/// How a tensor's registers travel: a MessagePlan (a tmem_message
/// layout), or the 32x32b layout, whose warps beyond the first warpgroup
/// may hold any columns (tmem_load slices). Decided before any IR is made.
struct RunShape {
  std::optional<MessagePlan> plan;
  MessageLayout layout;
};

FailureOr<RunShape> runShape(Operation *op, RankedTensorType type) {
  if (std::optional<MessagePlan> plan = messagePlan(type))
    return RunShape{plan, {}};
  FailureOr<MessageLayout> layout = messageLayout(op, type);
  if (failed(layout))
    return failure();
  return RunShape{std::nullopt, *layout};
}

/// The tcgen05.ld/st messages that move a thread's words: their shape,
/// the thread's base address and each message's part.
struct MessageRun {
  NVVM::Tcgen05LdStShapeAttr shape;
  Value address;
  SmallVector<Message> messages;
};

MessageRun buildRun(OpBuilder &b, Location loc, const RunShape &shape,
                    Value base, unsigned bits) {
  MessageRun run;
  if (shape.plan) {
    run.shape = messageShapeAttr(b.getContext(), shape.plan->msg);
    run.address = planAddress(b, loc, base, *shape.plan);
    run.messages = planMessages(*shape.plan);
    return run;
  }
  run.shape = shape32x32b(b.getContext());
  run.address = threadAddress(b, loc, base, shape.layout, bits);
  int64_t words = shape.layout.numRegs * bits / 32;
  for (int64_t c = 0; c < words; c += kMaxMessageColumns)
    run.messages.push_back({c, std::min(kMaxMessageColumns, words - c), 0, c});
  return run;
}

struct TMemLoadOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMemLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMemLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    FailureOr<RunShape> shape = runShape(op, type);
    if (failed(shape))
      return failure();
    Type elem = getTypeConverter()->convertType(type.getElementType());
    unsigned bits = elem.getIntOrFloatBitWidth();
    // The MMA that wrote the tile was seen complete by a thread
    // synchronization (an mbarrier wait): order the reads after it.
    tcgen05Fence(rewriter, loc, /*after=*/true);
    MessageRun run = buildRun(rewriter, loc, *shape, adaptor.getSrc(), bits);
    SmallVector<Value> loaded;
    for (const Message &m : run.messages) {
      Value msg = NVVM::Tcgen05LdOp::create(
          rewriter, loc, messageType(rewriter, m.words), UnitAttr(), run.shape,
          messageAddress(rewriter, loc, run.address, m), Value());
      if (m.words == 1) {
        loaded.push_back(msg);
        continue;
      }
      for (int64_t i = 0; i < m.words; ++i)
        loaded.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, msg, i32Const(rewriter, loc, i)));
    }
    NVVM::Tcgen05WaitOp::create(rewriter, loc,
                                NVVM::Tcgen05WaitKindAttr::get(
                                    getContext(), NVVM::Tcgen05WaitKind::LOAD));
    // A later synchronization (arriving on an "accumulator free" barrier)
    // tells the MMA issuer the reads are done.
    tcgen05Fence(rewriter, loc, /*after=*/false);
    rewriter.replaceOp(op,
                       packTensor(rewriter, loc, *getTypeConverter(), type,
                                  unpackWords(rewriter, loc, loaded, elem)));
    return success();
  }
};

struct TMemStoreOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMemStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TMemStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    FailureOr<RunShape> shape = runShape(op, type);
    if (failed(shape))
      return failure();
    SmallVector<Value> regs = unpackTensor(rewriter, loc, adaptor.getValue());
    unsigned bits = regs.front().getType().getIntOrFloatBitWidth();
    SmallVector<Value> words = packWords(rewriter, loc, regs);
    tcgen05Fence(rewriter, loc, /*after=*/true);
    MessageRun run = buildRun(rewriter, loc, *shape, adaptor.getDst(), bits);
    for (const Message &m : run.messages) {
      Value msg = words[m.firstWord];
      if (m.words > 1) {
        msg = LLVM::UndefOp::create(rewriter, loc,
                                    messageType(rewriter, m.words));
        for (int64_t i = 0; i < m.words; ++i)
          msg = LLVM::InsertElementOp::create(rewriter, loc, msg,
                                              words[m.firstWord + i],
                                              i32Const(rewriter, loc, i));
      }
      NVVM::Tcgen05StOp::create(rewriter, loc, UnitAttr(), run.shape,
                                messageAddress(rewriter, loc, run.address, m),
                                msg, Value());
    }
    NVVM::Tcgen05WaitOp::create(
        rewriter, loc,
        NVVM::Tcgen05WaitKindAttr::get(getContext(),
                                       NVVM::Tcgen05WaitKind::STORE));
    // The next synchronization publishes the stores to the MMA issuer.
    tcgen05Fence(rewriter, loc, /*after=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TCGen05FenceOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::TCGen05FenceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::TCGen05FenceOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    tcgen05Fence(rewriter, op.getLoc(), op.getAfter());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::txl::populateTensorMemoryOpPatterns(TXLTypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns.add<TMemAllocOpToLLVM, TMemDeallocOpToLLVM, TMemLoadOpToLLVM,
               TMemStoreOpToLLVM, TCGen05FenceOpToLLVM>(tc);
}
