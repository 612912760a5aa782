//===- WarpGroupDotOpToLLVM.cpp - shared tiles and wgmma ------------------===//
//
// local_alloc writes a register tensor into a swizzled shared tile;
// warp_group_dot issues wgmma.mma_async on such tiles (sm_90a) and
// warp_group_dot_wait retires them. Where an element lives in a tile comes
// from the tile's linear layout (getSharedOffsets), and which accumulator
// register holds which wgmma fragment element from the accumulator's linear
// layout, so the writer, the descriptors and the accumulator agree by
// construction.
//
//===----------------------------------------------------------------------===//
#include "InlinePTX.h"
#include "MMAOperandTile.h"

#include "Utility.h"

#include "mlir/IR/Matchers.h"
#include <map>

using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::LayoutMap;
using txlgpu::MemDescType;

namespace {

int64_t byteWidth(Type elem) {
  return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
}

struct LocalAllocOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::LocalAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = sharedAllocBase(rewriter, loc, op);
    if (failed(writeSharedTile(rewriter, loc, op, base, adaptor.getSrc(),
                               op.getSrc().getType(), op.getType())))
      return failure();
    rewriter.replaceOp(op, base);
    return success();
  }
};

std::optional<NVVM::WGMMATypes> wgmmaType(Type elem) {
  if (elem.isF16())
    return NVVM::WGMMATypes::f16;
  if (elem.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (elem.isF32())
    return NVVM::WGMMATypes::tf32;
  if (isa<Float8E4M3FNType>(elem))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(elem))
    return NVVM::WGMMATypes::e5m2;
  if (elem.isInteger(8))
    return NVVM::WGMMATypes::s8;
  return std::nullopt;
}

/// Register index of each coordinate in lane 0 of warp 0.
llvm::DenseMap<int64_t, int> registerIndex(const LayoutMap &map) {
  llvm::DenseMap<int64_t, int> index;
  for (int r = map.numRegs() - 1; r >= 0; --r)
    index[map.flatIndex(map.regCoord(r))] = r;
  return index;
}

/// Four bytes as one 32-bit word, byte e at bits 8e: shifts and ors, which
/// LLVM folds where two bytes are the halves of one 16-bit value (an fp8
/// pair from cvt.rn.satfinite.e4m3x2, the accumulator's adjacent columns)
/// where vector inserts become a bit-field insert per byte.
Value packBytes(OpBuilder &b, Location loc, ArrayRef<Value> bytes) {
  Type i32 = b.getI32Type();
  Value word;
  for (auto [e, v] : llvm::enumerate(bytes)) {
    Value wide = LLVM::ZExtOp::create(b, loc, i32, v);
    if (e)
      wide = LLVM::ShlOp::create(b, loc, wide, i32Const(b, loc, 8 * e));
    word = word ? LLVM::OrOp::create(b, loc, word, wide).getResult() : wide;
  }
  return word;
}

/// A from registers: the thread's elements in the dot-operand layout, and
/// which register holds which element of a wgmma A fragment.
struct RegisterA {
  SmallVector<Value> regs;
  llvm::DenseMap<int64_t, int> index;
  int64_t K;
  /// Elements per 32-bit fragment register: 2 (16-bit A), 4 (8-bit A).
  int64_t perWord;

  static std::optional<RegisterA> get(OpBuilder &b, Location loc, Value a,
                                      Value lowered) {
    auto type = cast<RankedTensorType>(a.getType());
    auto map = txlgpu::getLayoutMap(type);
    if (!map ||
        !isa_and_nonnull<txlgpu::DotOperandEncodingAttr>(type.getEncoding()))
      return std::nullopt;
    return RegisterA{unpackTensor(b, loc, lowered), registerIndex(*map),
                     type.getDimSize(1),
                     32 / type.getElementType().getIntOrFloatBitWidth()};
  }

  /// The four 32-bit registers of the m64k(8*perWord) fragment at (row0,
  /// k0): in lane 0 of warp 0, register j holds elements (row0 + 8*(j%2),
  /// k0 + 4*perWord*(j/2) + e) for e < perWord, element e in byte lanes
  /// e*32/perWord.. (PTX's a0, a1, ... low to high); other lanes and warps
  /// follow from the layout, which matches wgmma's.
  FailureOr<SmallVector<Value>> fragment(OpBuilder &b, Location loc,
                                         int64_t row0, int64_t k0) const {
    SmallVector<Value> words;
    for (int j = 0; j < 4; ++j) {
      int64_t row = row0 + 8 * (j % 2), k = k0 + 4 * perWord * (j / 2);
      SmallVector<Value> elems;
      for (int64_t e = 0; e < perWord; ++e) {
        auto it = index.find(row * K + k + e);
        if (it == index.end())
          return failure();
        elems.push_back(regs[it->second]);
      }
      Type elem = elems[0].getType();
      if (perWord == 4 && elem.isInteger(8)) {
        words.push_back(packBytes(b, loc, elems));
        continue;
      }
      Value word =
          LLVM::UndefOp::create(b, loc, VectorType::get({perWord}, elem));
      for (auto [e, v] : llvm::enumerate(elems))
        word =
            LLVM::InsertElementOp::create(b, loc, word, v, i32Const(b, loc, e));
      words.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), word));
    }
    return words;
  }
};

/// fp16 accumulators travel through wgmma (and its wait) two per 32-bit
/// register, the f16x2 PTX takes: element 2i in the low half.
SmallVector<Value> packHalfPairs(OpBuilder &b, Location loc,
                                 ArrayRef<Value> halves) {
  SmallVector<Value> words;
  for (size_t i = 0; i < halves.size(); i += 2) {
    Type elem = halves[i].getType();
    Value pair = LLVM::UndefOp::create(b, loc, VectorType::get({2}, elem));
    pair = LLVM::InsertElementOp::create(b, loc, pair, halves[i],
                                         i32Const(b, loc, 0));
    Value hi = i + 1 < halves.size() ? halves[i + 1] : halves[i];
    pair = LLVM::InsertElementOp::create(b, loc, pair, hi, i32Const(b, loc, 1));
    words.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair));
  }
  return words;
}

SmallVector<Value> unpackHalfPairs(OpBuilder &b, Location loc,
                                   ArrayRef<Value> words, Type elem,
                                   size_t count) {
  SmallVector<Value> halves;
  for (Value w : words) {
    Value pair = LLVM::BitcastOp::create(b, loc, VectorType::get({2}, elem), w);
    for (int j = 0; j < 2 && halves.size() < count; ++j)
      halves.push_back(
          LLVM::ExtractElementOp::create(b, loc, pair, i32Const(b, loc, j)));
  }
  return halves;
}

/// Registers ptxas needs next to one wgmma's accumulators (descriptors,
/// addresses, loop state): what it asks for in its "Insufficient registers"
/// error is the instruction's accumulator count plus this.
constexpr int64_t kWgmmaOverheadRegs = 26;

/// One wgmma's accumulators (instrN/2 registers of f32 per thread) cannot
/// spill, and ptxas gives each thread at most 65536 / threads registers
/// (rounded down to 8, at most 255). A dot that needs more is the user's
/// error, reported at the dot instead of as "ptxas fatal: Insufficient
/// registers".
LogicalResult checkRegisterBudget(txlgpu::WarpGroupDotOp op,
                                  RankedTensorType cTy, int64_t instrN) {
  int64_t threads = threadsPerCTAOf(op);
  int64_t budget = std::min<int64_t>(255, 65536 / threads / 8 * 8);
  int64_t accRegs = instrN * cTy.getElementTypeBitWidth() / 64;
  if (accRegs + kWgmmaOverheadRegs <= budget)
    return success();
  return op.emitError() << "this tl.dot's wgmma (m64n" << instrN << ") holds "
                        << accRegs
                        << " accumulator registers per thread and needs about "
                        << accRegs + kWgmmaOverheadRegs
                        << " registers, but a CTA of " << threads
                        << " threads leaves each thread at most " << budget
                        << " (65536 / " << threads
                        << "); use fewer warps or warpgroups, or a narrower "
                           "tile";
}

struct WarpGroupDotOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::WarpGroupDotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cTy = cast<RankedTensorType>(op.getC().getType());
    auto mma = cast<txlgpu::NvidiaMmaEncodingAttr>(cTy.getEncoding());
    auto cMap = txlgpu::getLayoutMap(cTy);
    bool regA = op.hasRegisterA();
    auto a = regA ? FailureOr<OperandTile>(failure())
                  : OperandTile::get(op.getA(), 1);
    auto b = OperandTile::get(op.getB(), 0);
    Type elem = op.getAElementType();
    auto type = wgmmaType(elem);
    std::optional<RegisterA> aRegs;
    if (regA)
      aRegs = RegisterA::get(rewriter, op.getLoc(), op.getA(), adaptor.getA());
    if (!cMap || (regA ? !aRegs : failed(a)) || failed(b) || !type ||
        mma.getWarpsPerCTA()[0] % 4 || mma.getInstrShape().size() < 2)
      return op.emitOpError("operands are not wgmma tiles (swizzle >= 32 "
                            "bytes, K-major unless 16-bit, warps in "
                            "warpgroups)");
    unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    int64_t instrN = mma.getInstrShape()[1];
    if (failed(checkRegisterBudget(op, cTy, instrN)))
      return failure();
    int64_t kInstr = 32 / byteWidth(elem);
    int64_t M = cTy.getDimSize(0), N = cTy.getDimSize(1), K = op.getAShape()[1];
    if (M % (16 * wm) || N % (instrN * wn) || K % kInstr || instrN % 8 ||
        instrN > 256)
      return op.emitOpError("tile ") << cTy << " does not split into m64n"
                                     << instrN << "k" << kInstr << " wgmmas";

    Location loc = op.getLoc();
    // This warpgroup's rows/columns beyond the static tile origin: warp-id
    // bits above the two that stack a warpgroup's warps along M.
    SmallVector<int64_t> wgRow, wgCol;
    for (auto [bit, basis] : llvm::enumerate(cMap->warpBases)) {
      wgRow.push_back(bit < 2 ? 0 : basis[0]);
      wgCol.push_back(bit < 2 ? 0 : basis[1]);
    }
    // wgmma is warpgroup-wide (every lane runs it): the warp id may come
    // from lane 0, so that the descriptors built from it are uniform.
    Value warp = uniformWarpId(rewriter, loc);
    Value aBase = regA ? Value() : tileAddress(rewriter, loc, adaptor.getA());
    Value bBase = tileAddress(rewriter, loc, adaptor.getB());
    // Offsets are linear in the coordinates: the warpgroup's part is added
    // by XOR on the element offsets, whose bits it does not share with the
    // static part.
    auto wgOffset = [&](const OperandTile &t, ArrayRef<int64_t> outerPart) {
      SmallVector<int64_t> table;
      for (int64_t outer : outerPart)
        table.push_back(t.byteOffset(outer, 0));
      return xorTable(rewriter, loc, warp, table);
    };
    Value aWg = regA ? Value() : wgOffset(*a, wgRow);
    Value bWg = wgOffset(*b, wgCol);
    // Each wgmma's descriptors differ from the tile origin's only in the
    // address field (bytes / 16), by a static offset that shares no bits
    // with the warpgroup's part: build the origin's descriptor once and add
    // the offset. One 64-bit add per operand and wgmma instead of the
    // address arithmetic, which ptxas otherwise redoes in vector registers
    // and moves to uniform ones before every wgmma.
    auto origin = [&](const OperandTile &t, Value base, Value wg) {
      return operandDescriptor(rewriter, loc, t,
                               LLVM::AddOp::create(rewriter, loc, base, wg));
    };
    Value aDesc = regA ? Value() : origin(*a, aBase, aWg);
    Value bDesc = origin(*b, bBase, bWg);
    auto stepped = [&](Value desc, int64_t byteOffset) -> Value {
      return LLVM::AddOp::create(rewriter, loc, desc,
                                 i64Const(rewriter, loc, byteOffset / 16));
    };

    // A zero accumulator is not materialized: the first wgmma of each
    // fragment runs with scale-d = 0 (D = A*B) on undefined registers.
    // Zeros moved into the accumulator registers right before the wgmma
    // would be non-wgmma definitions inside the wgmma pipeline, which make
    // ptxas serialize every wgmma of the kernel (its C7515 note).
    bool fromZero = matchPattern(op.getC(), m_AnyZeroFloat()) ||
                    matchPattern(op.getC(), m_Zero());
    SmallVector<Value> cRegs = unpackTensor(rewriter, loc, adaptor.getC());
    auto regOf = registerIndex(*cMap);
    // s8 operands accumulate in s32 (wrapping, as Triton's wgmma does);
    // fp16 ones in f32 or f16 (f16x2 words, packHalfPairs).
    Type accElem = cTy.getElementType();
    bool halfAcc = accElem.isF16();
    NVVM::WGMMATypes accType = accElem.isInteger(32) ? NVVM::WGMMATypes::s32
                               : halfAcc             ? NVVM::WGMMATypes::f16
                                                     : NVVM::WGMMATypes::f32;
    if (halfAcc && regA)
      return op.emitOpError("fp16 accumulators need A in shared memory");
    if (regA && kInstr != 16 && !b->kMajor)
      return op.emitOpError("8-bit A in registers needs a K-major B");
    auto fragTy = LLVM::LLVMStructType::getLiteral(
        getContext(), halfAcc
                          ? SmallVector<Type>(instrN / 4, rewriter.getI32Type())
                          : SmallVector<Type>(instrN / 2, accElem));
    // A's fragments are all computed (and converted to 16 bits) before the
    // fence: a conversion LLVM would otherwise sink between two register-A
    // wgmmas makes ptxas insert a warpgroup.arrive before each (C7519).
    std::map<std::pair<int64_t, int64_t>, SmallVector<Value>> aWords;
    if (regA) {
      SmallVector<Value> all;
      for (int64_t row0 = 0; row0 < M; row0 += 16 * wm)
        for (int64_t k0 = 0; k0 < K; k0 += kInstr) {
          FailureOr<SmallVector<Value>> words =
              aRegs->fragment(rewriter, loc, row0, k0);
          if (failed(words))
            return op.emitOpError("A's register layout lacks a fragment");
          all.append(*words);
        }
      SmallVector<Value> pinned = emitRegisterPin(rewriter, loc, all);
      size_t next = 0;
      for (int64_t row0 = 0; row0 < M; row0 += 16 * wm)
        for (int64_t k0 = 0; k0 < K; k0 += kInstr, next += 4)
          aWords[{row0, k0}].assign(pinned.begin() + next,
                                    pinned.begin() + next + 4);
    }
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    for (int64_t row0 = 0; row0 < M; row0 += 16 * wm) {
      for (int64_t col0 = 0; col0 < N; col0 += instrN * wn) {
        // Fragment element i of lane 0: row 8*((i/2)%2), col 8*(i/4) + i%2.
        SmallVector<int> slots;
        for (int64_t i = 0; i < instrN / 2; ++i) {
          int64_t row = row0 + 8 * ((i / 2) % 2);
          int64_t col = col0 + 8 * (i / 4) + i % 2;
          auto it = regOf.find(row * N + col);
          if (it == regOf.end())
            return op.emitOpError("accumulator layout lacks a fragment");
          slots.push_back(it->second);
        }
        Value frag = LLVM::UndefOp::create(rewriter, loc, fragTy);
        if (!fromZero) {
          SmallVector<Value> elems;
          for (int slot : slots)
            elems.push_back(cRegs[slot]);
          if (halfAcc)
            elems = packHalfPairs(rewriter, loc, elems);
          for (auto [i, v] : llvm::enumerate(elems))
            frag = LLVM::InsertValueOp::create(rewriter, loc, frag, v, i);
        }
        auto bDescAt = [&](int64_t k0) {
          return stepped(bDesc, b->byteOffset(col0, k0));
        };
        for (int64_t k0 = 0; k0 < K; k0 += kInstr) {
          if (regA) {
            SmallVector<Value> accs;
            for (unsigned i = 0; i < slots.size(); ++i)
              accs.push_back(
                  LLVM::ExtractValueOp::create(rewriter, loc, frag, i));
            accs = emitWarpGroupDotRegisterA(
                rewriter, loc, accs, aWords[{row0, k0}], bDescAt(k0),
                NVVM::stringifyWGMMATypes(*type), kInstr, !b->kMajor,
                /*accumulate=*/!fromZero || k0 > 0);
            for (auto [i, v] : llvm::enumerate(accs))
              frag = LLVM::InsertValueOp::create(rewriter, loc, frag, v, i);
            continue;
          }
          frag = NVVM::WgmmaMmaAsyncOp::create(
              rewriter, loc, fragTy, frag,
              stepped(aDesc, a->byteOffset(row0, k0)), bDescAt(k0),
              NVVM::MMAShapeAttr::get(getContext(), 64, instrN, kInstr), *type,
              *type, accType,
              fromZero && k0 == 0 ? NVVM::WGMMAScaleOut::zero
                                  : NVVM::WGMMAScaleOut::one,
              NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, a->layout(),
              b->layout(),
              /*satfinite=*/nullptr);
        }
        SmallVector<Value> words;
        for (unsigned i = 0; i < fragTy.getBody().size(); ++i)
          words.push_back(LLVM::ExtractValueOp::create(rewriter, loc, frag, i));
        if (halfAcc)
          words = unpackHalfPairs(rewriter, loc, words, accElem, slots.size());
        for (auto [i, slot] : llvm::enumerate(slots))
          cRegs[slot] = words[i];
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                      op.getType(), cRegs));
    return success();
  }
};

struct WarpGroupDotWaitOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::WarpGroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // fp16 accumulators wait as f16x2 words.
    SmallVector<Value> all;
    SmallVector<size_t> sizes, counts;
    SmallVector<Type> elems;
    for (Value v : adaptor.getInputs()) {
      SmallVector<Value> regs = unpackTensor(rewriter, loc, v);
      Type elem = regs.empty() ? Type() : regs[0].getType();
      bool half = elem && elem.isF16();
      for (Value r : regs)
        if (r.getType().getIntOrFloatBitWidth() != (half ? 16 : 32))
          return op.emitOpError("waits on 32-bit or fp16 accumulators only");
      counts.push_back(regs.size());
      elems.push_back(elem);
      if (half)
        regs = packHalfPairs(rewriter, loc, regs);
      sizes.push_back(regs.size());
      all.append(regs);
    }
    SmallVector<Value> waited =
        emitWarpGroupDotWait(rewriter, loc, op.getPendings(), all);
    SmallVector<Value> results;
    size_t next = 0;
    for (auto [i, v] : llvm::enumerate(op.getOutputs())) {
      SmallVector<Value> regs(ArrayRef<Value>(waited).slice(next, sizes[i]));
      if (elems[i] && elems[i].isF16())
        regs = unpackHalfPairs(rewriter, loc, regs, elems[i], counts[i]);
      results.push_back(
          packTensor(rewriter, loc, *getTypeConverter(), v.getType(), regs));
      next += sizes[i];
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::txl::populateWarpGroupDotOpPatterns(TXLTypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns
      .add<LocalAllocOpToLLVM, WarpGroupDotOpToLLVM, WarpGroupDotWaitOpToLLVM>(
          tc);
}
