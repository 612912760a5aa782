//===- DotOpToLLVM.cpp - txl.dot on mma.sync tensor cores -----------------===//
//
// Operands arrive in dot_op register layouts and the accumulator in an
// nvmma v2 layout (AssignLayouts). Each warp computes its 16 x 8 tiles with
// mma.sync m16n8k{8,16,32} (tf32, 16-bit, s8; fp16 operands may accumulate
// in fp16, two per register). Which register holds which fragment element
// is not hard-coded: the fragment's coordinates (PTX ISA mma.m16n8k*
// figures, seen from lane 0 of warp 0) are looked up in the layouts'
// linear maps, so the layout constructors and this lowering cannot
// silently disagree. A batched dot ([B, M, K] x [B, K, N]) is the same per
// batch: its layouts have a leading batch dim over warps and then registers,
// and each warp runs the tiles of the batches it holds.
//
// An FMA dot (fp64, or ieee fp32) has a blocked accumulator; its operands,
// in any layout, go through shared scratch, from which the thread of
// C[(b,) m, n] reads A[(b,) m, k] and B[(b,) k, n] for each k in order, one
// fused multiply-add each (so its registers hold its accumulators, not all
// of K).
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::LayoutMap;

namespace {

/// Register index of each coordinate of a layout, seen from lane 0 / warp 0.
struct RegisterTable {
  LayoutMap map;
  llvm::DenseMap<int64_t, int> regOf;

  explicit RegisterTable(LayoutMap m) : map(std::move(m)) {
    for (int r = map.numRegs() - 1; r >= 0; --r)
      regOf[map.flatIndex(map.regCoord(r))] = r;
  }
  /// -1 when no register holds (batch, row, col) (batch 0 for a 2-D
  /// tensor). A tile smaller than the instruction's repeats along the
  /// padded dimension (its layout's bases beyond the shape are zero): the
  /// instruction's extra rows and columns read and write copies of real
  /// ones, consistently in A, B and C.
  int lookup(int64_t batch, int64_t row, int64_t col) const {
    auto it = regOf.find(key(batch, row, col));
    return it == regOf.end() ? -1 : it->second;
  }
  int64_t key(int64_t batch, int64_t row, int64_t col) const {
    size_t r = map.shape.size();
    int64_t rows = map.shape[r - 2], cols = map.shape[r - 1];
    int64_t batches = r == 3 ? map.shape[0] : 1;
    return ((batch % batches) * rows + row % rows) * cols + col % cols;
  }
};

struct MmaShape {
  unsigned kWidth;   ///< elements per 32-bit operand register
  unsigned kInstr;   ///< K of one instruction: 8 * kWidth
  unsigned wb, wm, wn; ///< warps along the batch (1 if none), M and N
  int64_t repB, repM, repN, repK;
};

/// Packs `kWidth` operand elements into the 32-bit register mma.sync takes.
Value packOperand(OpBuilder &b, Location loc, ArrayRef<Value> elems) {
  Type elem = elems[0].getType();
  if (elems.size() == 1)
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), elems[0]);
  auto vecTy = VectorType::get({int64_t(elems.size())}, elem);
  Value vec = LLVM::UndefOp::create(b, loc, vecTy);
  for (auto [i, e] : llvm::enumerate(elems))
    vec = LLVM::InsertElementOp::create(b, loc, vec, e, i32Const(b, loc, i));
  if (elem.isF16())
    return vec; // f16 fragments are vector<2xf16>
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), vec);
}

/// The four accumulator elements of one m16n8 fragment as mma.sync takes
/// them: four f32/s32 registers, or two vector<2xf16> (c0 c1, c2 c3).
SmallVector<Value> packAccumulator(OpBuilder &b, Location loc,
                                   ArrayRef<Value> elems) {
  if (!elems[0].getType().isF16())
    return SmallVector<Value>(elems);
  return {packOperand(b, loc, elems.take_front(2)),
          packOperand(b, loc, elems.drop_front(2))};
}

/// mma.sync's result struct back to four accumulator elements.
SmallVector<Value> unpackAccumulator(OpBuilder &b, Location loc, Value mma,
                                     Type elem) {
  SmallVector<Value> out;
  if (!elem.isF16()) {
    for (int i = 0; i < 4; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, loc, mma, i));
    return out;
  }
  for (int reg = 0; reg < 2; ++reg) {
    Value pair = LLVM::ExtractValueOp::create(b, loc, mma, reg);
    for (int j = 0; j < 2; ++j)
      out.push_back(
          LLVM::ExtractElementOp::create(b, loc, pair, i32Const(b, loc, j)));
  }
  return out;
}

struct DotOpToLLVM : public ConvertOpToLLVMPattern<DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto aTy = cast<RankedTensorType>(op.getA().getType());
    auto bTy = cast<RankedTensorType>(op.getB().getType());
    auto cTy = cast<RankedTensorType>(op.getC().getType());
    auto mma = dyn_cast<txlgpu::NvidiaMmaEncodingAttr>(cTy.getEncoding());
    if (!mma || mma.getVersion() != 2)
      return rewriter.notifyMatchFailure(op, "needs an nvmma v2 accumulator");
    auto aMap = txlgpu::getLayoutMap(aTy), bMap = txlgpu::getLayoutMap(bTy),
         cMap = txlgpu::getLayoutMap(cTy);
    if (!aMap || !bMap || !cMap)
      return rewriter.notifyMatchFailure(op, "operand layouts unknown");
    Type elem = aTy.getElementType();
    std::optional<NVVM::MMATypes> ptxType;
    if (elem.isF16())
      ptxType = NVVM::MMATypes::f16;
    else if (elem.isBF16())
      ptxType = NVVM::MMATypes::bf16;
    else if (elem.isF32())
      ptxType = NVVM::MMATypes::tf32;
    else if (elem.isInteger(8))
      ptxType = NVVM::MMATypes::s8;
    if (!ptxType)
      return op.emitOpError("mma.sync supports fp16, bf16, tf32 and s8 "
                            "operands; got ")
             << elem;
    // s8 accumulates in s32, saturating (as Triton's m16n8k32 does).
    std::optional<NVVM::MMAIntOverflow> overflow;
    if (elem.isInteger(8))
      overflow = NVVM::MMAIntOverflow::satfinite;

    MmaShape s;
    s.kWidth = 32 / elem.getIntOrFloatBitWidth();
    s.kInstr = 8 * s.kWidth;
    // [M, N], or [B, M, N] with warpsPerCTA [wb, wm, wn].
    unsigned rank = cTy.getRank();
    ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
    if (warps.size() != rank)
      return op.emitOpError("accumulator layout rank differs from its shape");
    s.wb = rank == 3 ? warps[0] : 1;
    s.wm = warps[rank - 2];
    s.wn = warps[rank - 1];
    int64_t batches = rank == 3 ? cTy.getDimSize(0) : 1;
    s.repB = std::max<int64_t>(1, batches / s.wb);
    s.repM = std::max<int64_t>(1, cTy.getDimSize(rank - 2) / (16 * s.wm));
    s.repN = std::max<int64_t>(1, cTy.getDimSize(rank - 1) / (8 * s.wn));
    s.repK = aTy.getDimSize(rank - 1) / s.kInstr;

    Location loc = op.getLoc();
    RegisterTable a(*aMap), bt(*bMap), c(*cMap);
    SmallVector<Value> aRegs = unpackTensor(rewriter, loc, adaptor.getA());
    SmallVector<Value> bRegs = unpackTensor(rewriter, loc, adaptor.getB());
    SmallVector<Value> cRegs = unpackTensor(rewriter, loc, adaptor.getC());
    // Accumulators by flat coordinate, updated tile by tile.
    llvm::DenseMap<int64_t, Value> acc;
    for (int r = 0; r < cMap->numRegs(); ++r)
      acc[cMap->flatIndex(cMap->regCoord(r))] = cRegs[r];

    int64_t batch = 0; // of the tile being built, as warp 0 sees it
    auto fragment = [&](const RegisterTable &t, ArrayRef<Value> regs,
                        int64_t row, int64_t col) -> FailureOr<Value> {
      int r = t.lookup(batch, row, col);
      if (r < 0)
        return failure();
      return regs[r];
    };
    Type accElem = cTy.getElementType();
    auto resultTy = LLVM::LLVMStructType::getLiteral(
        getContext(), accElem.isF16()
                          ? SmallVector<Type>(2, VectorType::get({2}, accElem))
                          : SmallVector<Type>(4, accElem));
    for (int64_t bi = 0; bi < s.repB * s.repM; ++bi) {
      batch = (bi / s.repM) * s.wb;
      int64_t mi = bi % s.repM;
      int64_t row0 = mi * 16 * s.wm;
      for (int64_t ni = 0; ni < s.repN; ++ni) {
        int64_t col0 = ni * 8 * s.wn;
        int64_t cKeys[4];
        SmallVector<Value> cFrag;
        for (int i = 0; i < 4; ++i) {
          cKeys[i] = c.key(batch, row0 + 8 * (i / 2), col0 + i % 2);
          if (!acc.count(cKeys[i]))
            return op.emitOpError("accumulator layout lacks a fragment");
          cFrag.push_back(acc[cKeys[i]]);
        }
        for (int64_t ki = 0; ki < s.repK; ++ki) {
          int64_t k0 = ki * s.kInstr;
          unsigned kw = s.kWidth;
          SmallVector<Value> aFrag, bFrag;
          for (unsigned reg = 0; reg < 4; ++reg) {
            SmallVector<Value> elems;
            for (unsigned j = 0; j < kw; ++j) {
              unsigned i = reg * kw + j;
              auto v = fragment(a, aRegs, row0 + 8 * ((i / kw) % 2),
                                k0 + i % kw + 4 * kw * (i / (2 * kw)));
              if (failed(v))
                return op.emitOpError("A layout lacks a fragment");
              elems.push_back(*v);
            }
            aFrag.push_back(packOperand(rewriter, loc, elems));
          }
          for (unsigned reg = 0; reg < 2; ++reg) {
            SmallVector<Value> elems;
            for (unsigned j = 0; j < kw; ++j) {
              unsigned i = reg * kw + j;
              auto v = fragment(bt, bRegs, k0 + i % kw + 4 * kw * (i / kw),
                                col0);
              if (failed(v))
                return op.emitOpError("B layout lacks a fragment");
              elems.push_back(*v);
            }
            bFrag.push_back(packOperand(rewriter, loc, elems));
          }
          auto mmaOp = NVVM::MmaOp::create(
              rewriter, loc, resultTy, aFrag, bFrag,
              packAccumulator(rewriter, loc, cFrag), {16, 8, int64_t(s.kInstr)},
              std::nullopt, overflow,
              std::array<NVVM::MMATypes, 2>{*ptxType, *ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          cFrag = unpackAccumulator(rewriter, loc, mmaOp, accElem);
        }
        for (int i = 0; i < 4; ++i)
          acc[cKeys[i]] = cFrag[i];
      }
    }
    SmallVector<Value> result;
    for (int r = 0; r < cMap->numRegs(); ++r)
      result.push_back(acc[cMap->flatIndex(cMap->regCoord(r))]);
    rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                      op.getType(), result));
    return success();
  }
};

struct FmaDotOpToLLVM : public ConvertOpToLLVMPattern<DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cTy = cast<RankedTensorType>(op.getC().getType());
    if (!isa_and_nonnull<txlgpu::BlockedEncodingAttr>(cTy.getEncoding()))
      return rewriter.notifyMatchFailure(op, "needs a blocked accumulator");
    auto aTy = op.getA().getType(), bTy = op.getB().getType();
    auto aMap = txlgpu::getLayoutMap(aTy), bMap = txlgpu::getLayoutMap(bTy),
         cMap = txlgpu::getLayoutMap(cTy);
    if (!aMap || !bMap || !cMap)
      return op.emitOpError("FMA dot: operand layouts unknown");
    Location loc = op.getLoc();
    Type elem = aTy.getElementType();
    // [M, K] x [K, N], or [B, M, K] x [B, K, N].
    unsigned rank = cTy.getRank();
    int64_t M = cTy.getShape()[rank - 2], N = cTy.getShape()[rank - 1];
    int64_t K = aTy.getShape()[rank - 1];
    int64_t offset = scratchOffset(op);
    int64_t bOffset = offset + aTy.getNumElements() * scratchElemBytes(elem);
    // A and B to scratch, row-major; each thread then reads the rows of A
    // and the columns of B its accumulator elements need, one k at a time.
    auto stage = [&](Value regs, const txlgpu::LayoutMap &map,
                     RankedTensorType type, int64_t at) {
      SmallVector<Value> values = unpackTensor(rewriter, loc, regs);
      SmallVector<SmallVector<Value>> coords = allRegCoords(rewriter, loc, map);
      for (auto [v, coord] : llvm::zip(values, coords))
        storeScratch(
            rewriter, loc,
            scratchElementPtr(rewriter, loc, op, at, elem,
                              flatIndex(rewriter, loc, coord, type.getShape())),
            v);
    };
    barrier(rewriter, loc);
    stage(adaptor.getA(), *aMap, aTy, offset);
    stage(adaptor.getB(), *bMap, bTy, bOffset);
    barrier(rewriter, loc);
    SmallVector<Value> cRegs = unpackTensor(rewriter, loc, adaptor.getC());
    SmallVector<SmallVector<Value>> cCoords =
        allRegCoords(rewriter, loc, *cMap);
    auto mul = [&](Value x, int64_t c) {
      return LLVM::MulOp::create(rewriter, loc, x, i32Const(rewriter, loc, c));
    };
    auto add = [&](Value x, Value y) {
      return LLVM::AddOp::create(rewriter, loc, x, y);
    };
    for (auto [r, coord] : llvm::enumerate(cCoords)) {
      Value m = coord[rank - 2], n = coord[rank - 1];
      // Where batch b's A rows and B columns start: b * M * K and b * K * N.
      Value aBase = mul(m, K), bBase = n;
      if (rank == 3) {
        aBase = add(aBase, mul(coord[0], M * K));
        bBase = add(bBase, mul(coord[0], K * N));
      }
      Value acc = cRegs[r];
      for (int64_t k = 0; k < K; ++k) {
        Value aIdx = add(aBase, i32Const(rewriter, loc, k));
        Value bIdx = add(bBase, i32Const(rewriter, loc, k * N));
        Value av = loadScratch(
            rewriter, loc,
            scratchElementPtr(rewriter, loc, op, offset, elem, aIdx), elem);
        Value bv = loadScratch(
            rewriter, loc,
            scratchElementPtr(rewriter, loc, op, bOffset, elem, bIdx), elem);
        acc = LLVM::FMAOp::create(rewriter, loc, av, bv, acc);
      }
      cRegs[r] = acc;
    }
    rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                      op.getType(), cRegs));
    return success();
  }
};

} // namespace

void mlir::txl::populateDotOpPatterns(TXLTypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<DotOpToLLVM, FmaDotOpToLLVM>(tc);
}
