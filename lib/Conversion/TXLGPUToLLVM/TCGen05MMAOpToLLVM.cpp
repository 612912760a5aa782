//===- TCGen05MMAOpToLLVM.cpp - Blackwell tensor-core MMA -----------------===//
//
// tcgen05.mma (sm_100a) is issued by a single thread, not a warpgroup: D
// [128, N] lives in tensor memory, B is a shared tile read through a
// matrix descriptor (MMAOperandTile.h), A is a shared tile or a
// tensor-memory tile. The instruction is asynchronous; tcgen05.commit
// makes an mbarrier track all tcgen05 work the thread issued so far, and
// the barrier gets one arrival when it completes (that is how the TMA
// producer learns a stage is free and the epilogue that D is ready).
//
// One instruction is M = 128 x N (N a multiple of 16, at most 256; or
// M = 64 of a [64, N] accumulator, N a multiple of 8) x K =
// 32 bytes of A/B elements; a tile is a loop of them, each stepping the
// descriptors' addresses by the K (and N) offsets read off the tiles'
// layouts, exactly as the wgmma lowering does. The MMA's shape and types
// travel in a 32-bit instruction descriptor (PTX ISA "Instruction
// descriptor", kind::f16 / kind::tf32 / kind::f8f6f4):
//   bits 4-5 D format (1 = f32), 7-9 A format, 10-12 B format (f16 0, bf16
//   1, tf32 2; e4m3 0, e5m2 1), 15/16 A/B major (0 = K-major), 17-22
//   N >> 3, 24-28 M >> 4.
//
//===----------------------------------------------------------------------===//
#include "MMAOperandTile.h"

#include "txl/Dialect/TXLGPU/IR/TCGen05.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

struct MMAKind {
  NVVM::Tcgen05MMAKind kind;
  uint32_t format; ///< A and B format code in the instruction descriptor
};

std::optional<MMAKind> mmaKind(Type elem) {
  using K = NVVM::Tcgen05MMAKind;
  if (elem.isF16())
    return MMAKind{K::F16, 0};
  if (elem.isBF16())
    return MMAKind{K::F16, 1};
  if (elem.isF32())
    return MMAKind{K::TF32, 2};
  if (isa<Float8E4M3FNType>(elem))
    return MMAKind{K::F8F6F4, 0};
  if (isa<Float8E5M2Type>(elem))
    return MMAKind{K::F8F6F4, 1};
  return std::nullopt;
}

/// `m` is the MMA's M: 64 or 128, or 256 for a cta_group::2 pair (128
/// rows in each CTA).
uint32_t instructionDescriptor(const MMAKind &kind, bool aMNMajor,
                               bool bMNMajor, int64_t n, uint32_t m) {
  constexpr uint32_t kF32Accumulator = 1;
  return (kF32Accumulator << 4) | (kind.format << 7) | (kind.format << 10) |
         (uint32_t(aMNMajor) << 15) | (uint32_t(bMNMajor) << 16) |
         (uint32_t(n >> 3) << 17) | ((m >> 4) << 24);
}

/// The rank of the first CTA of the calling CTA's pair (cta_group::2
/// pairs ranks 2i and 2i + 1 of a cluster).
Value pairLeaderRank(OpBuilder &b, Location loc) {
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  return LLVM::AndOp::create(b, loc, rank, i32Const(b, loc, ~1));
}

/// The multicast mask naming both CTAs of the calling CTA's pair.
Value pairMask(OpBuilder &b, Location loc) {
  Value mask =
      LLVM::ShlOp::create(b, loc, i32Const(b, loc, 3), pairLeaderRank(b, loc));
  return LLVM::TruncOp::create(b, loc, b.getI16Type(), mask);
}

Value addColumns(OpBuilder &b, Location loc, Value tmem, int64_t columns) {
  if (columns == 0)
    return tmem;
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), tmem);
  address = LLVM::AddOp::create(b, loc, address, i32Const(b, loc, columns));
  return LLVM::IntToPtrOp::create(b, loc, tmem.getType(), address);
}

struct TCGen05MMAOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::TCGen05MMAOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::TCGen05MMAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool tmemA = txlgpu::isTensorMemory(op.getA().getType());
    auto a = tmemA ? FailureOr<OperandTile>(failure())
                   : OperandTile::get(op.getA(), 1);
    auto b = OperandTile::get(op.getB(), 0);
    Type elem = op.getA().getType().getElementType();
    std::optional<MMAKind> kind = mmaKind(elem);
    if ((!tmemA && failed(a)) || failed(b) || !kind)
      return op.emitOpError("operands are not tcgen05 tiles (swizzle >= 32 "
                            "bytes, K-major unless 16-bit; fp16, bf16, tf32 "
                            "or fp8)");
    if (tmemA && elem.getIntOrFloatBitWidth() != 16 && !elem.isF32())
      return op.emitOpError("A in tensor memory must be 16- or 32-bit");
    unsigned bits = elem.getIntOrFloatBitWidth();
    int64_t kInstr = 256 / bits;
    int64_t N = op.getD().getType().getShape()[1];
    int64_t K = op.getA().getType().getShape()[1];
    int64_t instrN = std::min<int64_t>(N, 256);
    bool pair = op.getTwoCtas();
    // M = 64 (a [64, N] accumulator, PTX ISA data-path layout F: rows in
    // lanes 0-15 of each warp's quarter) takes N in steps of 8; M = 128 in
    // steps of 16; a pair's B half must itself be whole 16-column blocks.
    int64_t M = op.getD().getType().getShape()[0];
    int64_t nAlign = pair ? 32 : M == 64 ? 8 : 16;
    uint32_t instrM = pair ? 256 : uint32_t(M);
    if (N % instrN || instrN % nAlign || K % kInstr)
      return op.emitOpError("tile [")
             << M << ", " << N << "] x K = " << K << " does not split into m"
             << instrM << "n" << instrN << "k" << kInstr
             << " MMAs (N a multiple of " << nAlign << ")";
    if (pair && tmemA)
      return op.emitOpError("a cta_group::2 MMA takes A from shared memory");

    uint32_t idesc = instructionDescriptor(
        *kind, /*aMNMajor=*/!tmemA && !a->kMajor, !b->kMajor, instrN, instrM);
    Value aDesc =
        tmemA ? Value()
              : operandDescriptor(rewriter, loc, *a,
                                  tileAddress(rewriter, loc, adaptor.getA()),
                                  /*tcgen05=*/true);
    Value bDesc = operandDescriptor(rewriter, loc, *b,
                                    tileAddress(rewriter, loc, adaptor.getB()),
                                    /*tcgen05=*/true);
    auto stepped = [&](Value desc, int64_t byteOffset) -> Value {
      if (byteOffset == 0)
        return desc;
      return LLVM::AddOp::create(rewriter, loc, desc,
                                 i64Const(rewriter, loc, byteOffset / 16));
    };

    // One thread issues: the elected lane of the role's first warp.
    Value leader = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, ctaWarpId(rewriter, loc),
        i32Const(rewriter, loc, op.getLeaderWarp()));
    Value elected =
        NVVM::ElectSyncOp::create(rewriter, loc, rewriter.getI1Type(), Value());
    leader = LLVM::AndOp::create(rewriter, loc, leader, elected);
    if (pair) // the even CTA of the pair issues for both
      leader = LLVM::AndOp::create(
          rewriter, loc, leader,
          LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::eq,
              NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type()),
              pairLeaderRank(rewriter, loc)));
    leader = andPred(rewriter, loc, leader, adaptor.getPred());
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                         rewriter.getBoolAttr(true));
    Value idescValue = i32Const(rewriter, loc, int64_t(idesc));
    auto kindAttr = NVVM::Tcgen05MMAKindAttr::get(getContext(), kind->kind);
    auto group = NVVM::CTAGroupKindAttr::get(getContext(),
                                             pair ? NVVM::CTAGroupKind::CTA_2
                                                  : NVVM::CTAGroupKind::CTA_1);
    ifThen(rewriter, loc, leader, [&] {
      // Ordered after the synchronization (mbarrier wait) that said the
      // operands are in place and the accumulator is free.
      NVVM::Tcgen05FenceOp::create(
          rewriter, loc,
          NVVM::Tcgen05FenceKindAttr::get(
              getContext(), NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
      for (int64_t col0 = 0; col0 < N; col0 += instrN) {
        Value d = addColumns(rewriter, loc, adaptor.getD(), col0);
        for (int64_t k0 = 0; k0 < K; k0 += kInstr) {
          Value aOperand =
              tmemA ? addColumns(rewriter, loc, adaptor.getA(), k0 * bits / 32)
                    : stepped(aDesc, a->byteOffset(0, k0));
          // A pair's B holds half of each column chunk in each CTA.
          Value bOperand =
              stepped(bDesc, b->byteOffset(pair ? col0 / 2 : col0, k0));
          NVVM::Tcgen05MMAOp::create(
              rewriter, loc, kindAttr, group, /*collectorOp=*/nullptr,
              /*aShift=*/nullptr, d, aOperand, bOperand, idescValue,
              k0 == 0 ? adaptor.getUseD() : one, /*scaleInputD=*/Value(),
              /*disableOutputLane=*/Value());
        }
      }
      // Each barrier gets one arrival once every MMA above is done; a
      // pair's MMAs wrote both CTAs' accumulators and read both CTAs'
      // tiles, so the arrival goes to the barrier in each of them.
      // A commit with a predicate (dotx's mbarPreds) is issued only where
      // it holds.
      Value mask = pair ? pairMask(rewriter, loc) : Value();
      ValueRange preds = adaptor.getBarrierPreds();
      for (auto [i, bar] : llvm::enumerate(adaptor.getBarriers())) {
        auto commit = [&, bar = bar] {
          NVVM::Tcgen05CommitOp::create(rewriter, loc, bar, mask, group);
        };
        if (preds.empty())
          commit();
        else
          ifThen(rewriter, loc, preds[i], commit);
      }
    });
    if (op->hasAttr(txlgpu::kSyncCommitAttr))
      waitForCommit(rewriter, loc, adaptor.getBarriers());
    rewriter.eraseOp(op);
    return success();
  }

  /// Every thread arrives on the barrier (initialized to the thread count
  /// + 1) and waits for the phase its arrival belongs to, which the
  /// commit's arrival completes once the MMAs are done.
  void waitForCommit(ConversionPatternRewriter &rewriter, Location loc,
                     ValueRange barriers) const {
    Value bar = barriers.front();
    Value token = NVVM::MBarrierArriveOp::create(
                      rewriter, loc, rewriter.getI64Type(), bar, Value())
                      ->getResult(0);
    spinUntil(rewriter, loc, [&](OpBuilder &b) -> Value {
      return NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), bar, token,
                                             Value());
    });
  }
};

/// tcgen05.cp: the shared tile is read as a K-major A operand (the same
/// matrix descriptor an MMA would use), 128 rows x 256 bits per copy, so
/// row r lands in TMEM lane r and each 32 bytes of it in 8 columns; the
/// tile is a loop of such copies stepping the descriptor along K, as the
/// MMA lowering does. One thread issues them (the elected lane of the
/// role's first warp) and commits them to the barriers.
struct TMemCopyOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::TMemCopyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::TMemCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto src = OperandTile::get(op.getSrc(), 1);
    if (failed(src) || !src->kMajor)
      return op.emitOpError("the source is not a K-major tcgen05 tile "
                            "(swizzle >= 32 bytes, rows along the "
                            "contiguous dimension)");
    unsigned bits =
        op.getSrc().getType().getElementType().getIntOrFloatBitWidth();
    int64_t K = op.getSrc().getType().getShape()[1];
    int64_t perCopy = 256 / bits; // elements of a row per 128x256b copy
    if (K % perCopy)
      return op.emitOpError("rows of ")
             << K << " elements are not whole 32-byte copies";
    Value desc = operandDescriptor(rewriter, loc, *src,
                                   tileAddress(rewriter, loc, adaptor.getSrc()),
                                   /*tcgen05=*/true);
    Value leader = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, ctaWarpId(rewriter, loc),
        i32Const(rewriter, loc, op.getLeaderWarp()));
    leader =
        LLVM::AndOp::create(rewriter, loc, leader,
                            NVVM::ElectSyncOp::create(
                                rewriter, loc, rewriter.getI1Type(), Value()));
    leader = andPred(rewriter, loc, leader, adaptor.getPred());
    auto group =
        NVVM::CTAGroupKindAttr::get(getContext(), NVVM::CTAGroupKind::CTA_1);
    auto shape = NVVM::Tcgen05CpShapeAttr::get(
        getContext(), NVVM::Tcgen05CpShape::SHAPE_128x256b);
    ifThen(rewriter, loc, leader, [&] {
      // Ordered after the synchronization that said the tile is written
      // (and fenced for the async proxy) and the columns are free.
      NVVM::Tcgen05FenceOp::create(
          rewriter, loc,
          NVVM::Tcgen05FenceKindAttr::get(
              getContext(), NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
      for (int64_t k0 = 0; k0 < K; k0 += perCopy) {
        int64_t offset = src->byteOffset(0, k0);
        Value stepped =
            offset == 0
                ? desc
                : LLVM::AddOp::create(rewriter, loc, desc,
                                      i64Const(rewriter, loc, offset / 16))
                      .getResult();
        NVVM::Tcgen05CpOp::create(
            rewriter, loc, shape, group,
            NVVM::Tcgen05CpMulticastAttr::get(getContext(),
                                              NVVM::Tcgen05CpMulticast::NONE),
            NVVM::Tcgen05CpSrcFormatAttr(),
            addColumns(rewriter, loc, adaptor.getDst(), k0 * bits / 32),
            stepped);
      }
      for (Value bar : adaptor.getBarriers())
        NVVM::Tcgen05CommitOp::create(rewriter, loc, bar, Value(), group);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::txl::populateTCGen05MMAOpPatterns(TXLTypeConverter &tc,
                                             RewritePatternSet &patterns) {
  patterns.add<TCGen05MMAOpToLLVM, TMemCopyOpToLLVM>(tc);
}
