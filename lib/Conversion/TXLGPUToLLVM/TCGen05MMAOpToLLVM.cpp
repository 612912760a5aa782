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
// The block-scaled kinds (tl.dot_scaled: kind::mxf8f6f4, mxf4, mxf4nvf4) have a
// descriptor of their own (TCGen05.h) and read their scale factors from
// tensor memory, where the issuing thread first copies them with
// tcgen05.cp (TCGen05MMAScaledOpToLLVM below).
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

/// Whether the calling thread issues: the elected lane of warp `warp`.
Value electedIssuer(OpBuilder &b, Location loc, int64_t warp) {
  Value leader =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, ctaWarpId(b, loc),
                           i32Const(b, loc, warp));
  Value elected = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
  return LLVM::AndOp::create(b, loc, leader, elected);
}

/// tcgen05.fence::after_thread_sync: the issuer's tcgen05 work is ordered
/// after the synchronization that said its operands are in place.
void fenceAfterThreadSync(OpBuilder &b, Location loc) {
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          b.getContext(), NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
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
    auto stepped = [&](Value desc, int64_t byteOffset) {
      return stepDescriptor(rewriter, loc, desc, byteOffset);
    };

    // One thread issues: the elected lane of the role's first warp.
    Value leader = electedIssuer(rewriter, loc, op.getLeaderWarp());
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
      fenceAfterThreadSync(rewriter, loc);
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
  static void waitForCommit(ConversionPatternRewriter &rewriter, Location loc,
                            ValueRange barriers) {
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
    Value leader = electedIssuer(rewriter, loc, op.getLeaderWarp());
    leader = andPred(rewriter, loc, leader, adaptor.getPred());
    auto group =
        NVVM::CTAGroupKindAttr::get(getContext(), NVVM::CTAGroupKind::CTA_1);
    auto shape = NVVM::Tcgen05CpShapeAttr::get(
        getContext(), NVVM::Tcgen05CpShape::SHAPE_128x256b);
    ifThen(rewriter, loc, leader, [&] {
      // Ordered after the synchronization that said the tile is written
      // (and fenced for the async proxy) and the columns are free.
      fenceAfterThreadSync(rewriter, loc);
      for (int64_t k0 = 0; k0 < K; k0 += perCopy) {
        int64_t offset = src->byteOffset(0, k0);
        Value stepped = stepDescriptor(rewriter, loc, desc, offset);
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

/// The matrix descriptor of one 512-byte chunk of a scale tile for
/// tcgen05.cp.32x128b: 32 rows of 16 bytes, unswizzled (layout type 0 at
/// bits 61-63), K-major with one 16-byte core-matrix column (so the
/// leading-dimension offset is unused, 0) and 8-row core matrices 128
/// bytes apart (the stride-dimension offset, bits 32-45, in 16-byte
/// units); bit 46 is sm_100's descriptor version.
Value scaleChunkDescriptor(OpBuilder &b, Location loc, Value address) {
  constexpr uint64_t kCoreMatrixStride = 128;
  uint64_t bits = ((kCoreMatrixStride / 16) << 32) | (uint64_t(1) << 46);
  return LLVM::OrOp::create(b, loc, descriptorAddressField(b, loc, address),
                            i64Const(b, loc, int64_t(bits)));
}

/// Whether a scale tile is laid out as the copies read it: 16-byte rows,
/// one after the other (unswizzled, row-major).
bool isPlainScaleTile(Value tile) {
  auto type = cast<txlgpu::MemDescType>(tile.getType());
  auto enc = dyn_cast<txlgpu::NVMMASharedEncodingAttr>(type.getEncoding());
  return enc && enc.getSwizzleBytes() == 0 && enc.getOrder()[0] == 1;
}

/// tl.dot_scaled on sm_100a: the elected thread copies both scale tiles to
/// tensor memory (one tcgen05.cp.32x128b.warpx4 per 512 bytes: rows
/// 32 at a time, each to its lane in all four lane quarters, 4 columns),
/// then issues one block-scaled MMA per 32 bytes of K, each naming the
/// scale columns and byte (the data IDs of the instruction descriptor) of
/// its K groups, and commits them; with kSyncCommitAttr every thread then
/// waits for the commit.
struct TCGen05MMAScaledOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::TCGen05MMAScaledOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::TCGen05MMAScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using txlgpu::BlockScaledKind;
    Location loc = op.getLoc();
    auto a = OperandTile::get(op.getA(), 1);
    auto b = OperandTile::get(op.getB(), 0);
    if (failed(a) || failed(b) || !a->kMajor || !b->kMajor)
      return op.emitOpError("A and B must be K-major tiles with a swizzle of "
                            "at least 32 bytes");
    if (!isPlainScaleTile(op.getAScaleTile()) ||
        !isPlainScaleTile(op.getBScaleTile()))
      return op.emitOpError("scale tiles must be unswizzled rows of 16 bytes");
    bool fp4 = op.getAFormat() == "e2m1" && op.getBFormat() == "e2m1";
    // e4m3 scale tiles (the verifier makes both alike) are nvfp4.
    bool nvfp4 = isa<Float8E4M3FNType>(
        cast<txlgpu::MemDescType>(op.getAScaleTile().getType())
            .getElementType());
    if (nvfp4 && !fp4)
      return op.emitOpError("e4m3 scales (kind::mxf4nvf4) need e2m1 A and B");
    BlockScaledKind kind = nvfp4 ? BlockScaledKind::MXF4NVF4
                           : fp4 ? BlockScaledKind::MXF4
                                 : BlockScaledKind::MXF8F6F4;
    std::optional<uint32_t> aCode =
        txlgpu::blockScaledFormatCode(kind, op.getAFormat());
    std::optional<uint32_t> bCode =
        txlgpu::blockScaledFormatCode(kind, op.getBFormat());
    // Mixing e2m1 with an 8-bit format is kind::mxf8f6f4 with e2m1 padded
    // to a byte per element in shared memory, which txl does not lay out.
    if (!aCode || !bCode ||
        (!fp4 && (op.getAFormat() == "e2m1" || op.getBFormat() == "e2m1")))
      return op.emitOpError("formats ")
             << op.getAFormat() << " x " << op.getBFormat()
             << " are not a block-scaled kind txl issues";
    int64_t N = op.getD().getType().getShape()[1];
    int64_t kBytes = op.getA().getType().getShape()[1];
    // 32 bytes of K per instruction: 32 fp8 elements (one scale group,
    // scale_vec::1X) or 64 e2m1 elements (two groups of 32, scale_vec::2X;
    // nvfp4: four of 16, scale_vec::4X).
    constexpr int64_t kInstrBytes = 32;
    int64_t groupsPerInstr = nvfp4 ? 4 : fp4 ? 2 : 1;
    if (N % 16 || N > 256 || kBytes % kInstrBytes)
      return op.emitOpError("tile [128, ")
             << N << "] x " << kBytes
             << " bytes of K does not split into block-scaled MMAs (N a "
                "multiple of 16 up to 256, K 32 bytes at a time)";
    auto bytesOf = [](Value tile) {
      ArrayRef<int64_t> shape =
          cast<txlgpu::MemDescType>(tile.getType()).getShape();
      return shape[0] * shape[1];
    };
    // Scale tiles hold rows x groups bytes: A 128 rows, B N rounded up to
    // a multiple of 128; groups (K / 32, nvfp4 K / 16, rounded up to 4)
    // are shared.
    int64_t groups = bytesOf(op.getAScaleTile()) / 128;
    int64_t bRows = bytesOf(op.getBScaleTile()) / groups;
    int64_t kGroups = kBytes / kInstrBytes * groupsPerInstr;
    if (groups % 4 || groups < kGroups || bRows % 128 || bRows < N)
      return op.emitOpError("scale tiles do not cover the tile's K groups");

    Value aDesc = operandDescriptor(
        rewriter, loc, *a, tileAddress(rewriter, loc, adaptor.getA()), true);
    Value bDesc = operandDescriptor(
        rewriter, loc, *b, tileAddress(rewriter, loc, adaptor.getB()), true);
    auto stepped = [&](Value desc, int64_t byteOffset) {
      return stepDescriptor(rewriter, loc, desc, byteOffset);
    };
    Value leader = electedIssuer(rewriter, loc, op.getLeaderWarp());
    auto group =
        NVVM::CTAGroupKindAttr::get(getContext(), NVVM::CTAGroupKind::CTA_1);
    auto kindAttr = NVVM::MMABlockScaleKindAttr::get(
        getContext(), nvfp4 ? NVVM::MMABlockScaleKind::MXF4NVF4
                      : fp4 ? NVVM::MMABlockScaleKind::MXF4
                            : NVVM::MMABlockScaleKind::MXF8F6F4);
    // .block32 is the PTX ISA's alias of scale_vec::1X for mxf8f6f4 and of
    // scale_vec::2X for mxf4 (K = 64): one UE8M0 factor per 32 elements;
    // .block16 that of scale_vec::4X for mxf4nvf4: one UE4M3 per 16.
    auto blockSize = NVVM::Tcgen05MMABlockScaleAttr::get(
        getContext(), nvfp4 ? NVVM::Tcgen05MMABlockScale::BLOCK16
                            : NVVM::Tcgen05MMABlockScale::BLOCK32);
    auto discard = NVVM::Tcgen05MMACollectorOpAttr::get(
        getContext(), NVVM::Tcgen05MMACollectorOp::DISCARD);
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                         rewriter.getBoolAttr(true));
    ifThen(rewriter, loc, leader, [&] {
      fenceAfterThreadSync(rewriter, loc);
      copyScales(rewriter, loc, adaptor.getAScaleTile(), adaptor.getAScale(),
                 op.getAScaleTile());
      copyScales(rewriter, loc, adaptor.getBScaleTile(), adaptor.getBScale(),
                 op.getBScaleTile());
      for (int64_t k0 = 0; k0 < kBytes; k0 += kInstrBytes) {
        int64_t g = k0 / kInstrBytes * groupsPerInstr;
        uint32_t id = uint32_t(g % 4);
        uint32_t idesc = txlgpu::blockScaledInstructionDescriptor(
            *aCode, *bCode, N, 128, id, id, /*ue4m3Scales=*/nvfp4);
        Value aScale = addColumns(rewriter, loc, adaptor.getAScale(),
                                  txlgpu::scaleFactorColumn(g, 0, 128));
        Value bScale = addColumns(rewriter, loc, adaptor.getBScale(),
                                  txlgpu::scaleFactorColumn(g, 0, bRows));
        NVVM::Tcgen05MMABlockScaleOp::create(
            rewriter, loc, kindAttr, group, blockSize, discard, adaptor.getD(),
            stepped(aDesc, a->byteOffset(0, k0)),
            stepped(bDesc, b->byteOffset(0, k0)),
            i32Const(rewriter, loc, int64_t(idesc)),
            k0 == 0 ? adaptor.getUseD() : one, aScale, bScale);
      }
      NVVM::Tcgen05CommitOp::create(rewriter, loc, adaptor.getBarrier(),
                                    Value(), group);
    });
    if (op->hasAttr(txlgpu::kSyncCommitAttr))
      TCGen05MMAOpToLLVM::waitForCommit(rewriter, loc,
                                        ValueRange{adaptor.getBarrier()});
    rewriter.eraseOp(op);
    return success();
  }

  /// One tcgen05.cp.32x128b.warpx4 per 512-byte chunk: chunk c to columns
  /// 4c .. 4c + 3 of `dst`.
  void copyScales(ConversionPatternRewriter &rewriter, Location loc, Value tile,
                  Value dst, Value typedTile) const {
    int64_t rows = cast<txlgpu::MemDescType>(typedTile.getType()).getShape()[0];
    Value base = tileAddress(rewriter, loc, tile);
    auto shape = NVVM::Tcgen05CpShapeAttr::get(
        getContext(), NVVM::Tcgen05CpShape::SHAPE_32x128b);
    auto warpx4 = NVVM::Tcgen05CpMulticastAttr::get(
        getContext(), NVVM::Tcgen05CpMulticast::WARPX4);
    auto group =
        NVVM::CTAGroupKindAttr::get(getContext(), NVVM::CTAGroupKind::CTA_1);
    for (int64_t c = 0; c < rows / 32; ++c) {
      Value address = LLVM::AddOp::create(rewriter, loc, base,
                                          i32Const(rewriter, loc, 512 * c));
      NVVM::Tcgen05CpOp::create(rewriter, loc, shape, group, warpx4,
                                NVVM::Tcgen05CpSrcFormatAttr(),
                                addColumns(rewriter, loc, dst, 4 * c),
                                scaleChunkDescriptor(rewriter, loc, address));
    }
  }
};

} // namespace

void mlir::txl::populateTCGen05MMAOpPatterns(TXLTypeConverter &tc,
                                             RewritePatternSet &patterns) {
  patterns.add<TCGen05MMAOpToLLVM, TCGen05MMAScaledOpToLLVM, TMemCopyOpToLLVM>(
      tc);
}
