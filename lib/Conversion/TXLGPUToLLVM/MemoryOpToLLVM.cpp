//===- MemoryOpToLLVM.cpp - global loads and stores -----------------------===//
//
// Registers holding consecutive elements are accessed with one vector
// instruction of up to 16 bytes (the width AssignLayouts recorded from the
// axis analysis as `txlgpu.vec`, capped by what the layout keeps contiguous
// in registers). Unmasked plain accesses are LLVM loads/stores; masked or
// cache-hinted ones go through the predicated inline PTX in InlinePTX.cpp.
// Stores are issued by one replica only when data is replicated.
//
//===----------------------------------------------------------------------===//
#include "InlinePTX.h"
#include "Utility.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

/// How a group of `vec` elements of `elemTy` travels through memory.
struct Packing {
  Type elemTy;    ///< register element type (converted)
  Type memElemTy; ///< in-memory element type (i1 -> i8, ptr -> i64)
  unsigned elemBits;
  unsigned vec;
  unsigned wordBits;
  unsigned numWords;
};

Packing getPacking(OpBuilder &b, Type elemTy, unsigned vec) {
  Packing p;
  p.elemTy = elemTy;
  if (elemTy.isInteger(1))
    p.memElemTy = b.getI8Type();
  else if (isa<LLVM::LLVMPointerType>(elemTy))
    p.memElemTy = b.getI64Type();
  else
    p.memElemTy = elemTy;
  p.elemBits = p.memElemTy.getIntOrFloatBitWidth();
  p.vec = vec;
  unsigned total = p.elemBits * vec;
  p.wordBits = total >= 32 ? (p.elemBits == 64 ? 64 : 32) : 16;
  if (total < 16) { // a single byte: widen to a 16-bit word
    p.numWords = 1;
    return p;
  }
  p.numWords = total / p.wordBits;
  return p;
}

Value toMem(OpBuilder &b, Location loc, const Packing &p, Value v) {
  if (p.elemTy.isInteger(1))
    return LLVM::ZExtOp::create(b, loc, p.memElemTy, v);
  if (isa<LLVM::LLVMPointerType>(p.elemTy))
    return LLVM::PtrToIntOp::create(b, loc, p.memElemTy, v);
  return v;
}

Value fromMem(OpBuilder &b, Location loc, const Packing &p, Value v) {
  if (p.elemTy.isInteger(1))
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, v,
                                LLVM::ConstantOp::create(b, loc, p.memElemTy,
                                                         b.getIntegerAttr(p.memElemTy, 0)));
  if (isa<LLVM::LLVMPointerType>(p.elemTy))
    return LLVM::IntToPtrOp::create(b, loc, p.elemTy, v);
  return v;
}

/// Elements -> words (bit-exact).
SmallVector<Value> packWords(OpBuilder &b, Location loc, const Packing &p,
                             ArrayRef<Value> elems) {
  Type wordTy = b.getIntegerType(p.wordBits);
  if (p.elemBits * p.vec < 16) { // one byte
    Value byte = LLVM::BitcastOp::create(b, loc, b.getI8Type(),
                                         toMem(b, loc, p, elems[0]));
    return {LLVM::ZExtOp::create(b, loc, wordTy, byte)};
  }
  auto vecTy = VectorType::get({(int64_t)p.vec}, p.memElemTy);
  Value v = LLVM::UndefOp::create(b, loc, vecTy);
  for (auto [i, e] : llvm::enumerate(elems))
    v = LLVM::InsertElementOp::create(b, loc, v, toMem(b, loc, p, e),
                                      i64Const(b, loc, i));
  auto wordsTy = VectorType::get({(int64_t)p.numWords}, wordTy);
  Value words = LLVM::BitcastOp::create(b, loc, wordsTy, v);
  SmallVector<Value> out;
  for (unsigned i = 0; i < p.numWords; ++i)
    out.push_back(
        LLVM::ExtractElementOp::create(b, loc, words, i64Const(b, loc, i)));
  return out;
}

/// Words -> elements.
SmallVector<Value> unpackWords(OpBuilder &b, Location loc, const Packing &p,
                               ArrayRef<Value> words) {
  if (p.elemBits * p.vec < 16) {
    Value byte = LLVM::TruncOp::create(b, loc, b.getI8Type(), words[0]);
    Value mem = LLVM::BitcastOp::create(b, loc, p.memElemTy, byte);
    return {fromMem(b, loc, p, mem)};
  }
  Type wordTy = b.getIntegerType(p.wordBits);
  auto wordsTy = VectorType::get({(int64_t)p.numWords}, wordTy);
  Value v = LLVM::UndefOp::create(b, loc, wordsTy);
  for (auto [i, w] : llvm::enumerate(words))
    v = LLVM::InsertElementOp::create(b, loc, v, w, i64Const(b, loc, i));
  auto vecTy = VectorType::get({(int64_t)p.vec}, p.memElemTy);
  Value elems = LLVM::BitcastOp::create(b, loc, vecTy, v);
  SmallVector<Value> out;
  for (unsigned i = 0; i < p.vec; ++i)
    out.push_back(fromMem(
        b, loc, p,
        LLVM::ExtractElementOp::create(b, loc, elems, i64Const(b, loc, i))));
  return out;
}

} // namespace

unsigned mlir::txl::globalVectorWidth(Operation *op, Type ptrType,
                                      unsigned elemBits) {
  auto tensorTy = dyn_cast<RankedTensorType>(ptrType);
  if (!tensorTy)
    return 1;
  auto map = txlgpu::getLayoutMap(tensorTy);
  unsigned vec = 1;
  if (auto attr = op->getAttrOfType<IntegerAttr>(
          txlgpu::TXLGPUDialect::kVecAttr))
    vec = attr.getInt();
  unsigned fastest = tensorTy.getRank() - 1;
  if (auto blocked = dyn_cast<txlgpu::BlockedEncodingAttr>(tensorTy.getEncoding()))
    fastest = blocked.getOrder()[0];
  vec = std::min<unsigned>(vec, map ? map->contiguousRegs(fastest) : 1);
  vec = std::min<unsigned>(vec, std::max(1u, 128 / elemBits));
  return std::max(1u, (unsigned)llvm::bit_floor(vec));
}

namespace {

Value trueValue(OpBuilder &b, Location loc) {
  return LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
}

struct LoadToLLVM : public ConvertOpToLLVMPattern<LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &tc = *getTypeConverter();
    Type elemTy = convertElementType(tc, op.getType());
    SmallVector<Value> ptrs = unpackTensor(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackTensor(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpackTensor(rewriter, loc, adaptor.getOther());
    Packing probe = getPacking(rewriter, elemTy, 1);
    unsigned vec = globalVectorWidth(op, op.getPtr().getType(), probe.elemBits);
    Packing p = getPacking(rewriter, elemTy, vec);
    bool plain = masks.empty() && op.getCache() == CacheModifier::None &&
                 op.getEvict() == EvictionPolicy::Normal && !op.getIsVolatile();

    SmallVector<Value> results;
    for (size_t r0 = 0; r0 < ptrs.size(); r0 += vec) {
      SmallVector<Value> words;
      if (plain) {
        Type wordsTy = p.numWords == 1
                           ? (Type)rewriter.getIntegerType(p.wordBits)
                           : VectorType::get({(int64_t)p.numWords},
                                             rewriter.getIntegerType(p.wordBits));
        if (p.elemBits * p.vec < 16) {
          Value byte = LLVM::LoadOp::create(rewriter, loc, rewriter.getI8Type(),
                                            ptrs[r0], 1);
          words.push_back(LLVM::ZExtOp::create(rewriter, loc,
                                               rewriter.getI16Type(), byte));
        } else {
          Value loaded = LLVM::LoadOp::create(rewriter, loc, wordsTy, ptrs[r0],
                                              p.elemBits * vec / 8);
          if (p.numWords == 1)
            words.push_back(loaded);
          else
            for (unsigned i = 0; i < p.numWords; ++i)
              words.push_back(LLVM::ExtractElementOp::create(
                  rewriter, loc, loaded, i64Const(rewriter, loc, i)));
        }
      } else {
        SmallVector<Value> otherWords;
        if (!others.empty())
          otherWords = packWords(rewriter, loc, p,
                                 ArrayRef<Value>(others).slice(r0, vec));
        else
          for (unsigned i = 0; i < p.numWords; ++i)
            otherWords.push_back(LLVM::ConstantOp::create(
                rewriter, loc, rewriter.getIntegerType(p.wordBits),
                rewriter.getIntegerAttr(rewriter.getIntegerType(p.wordBits), 0)));
        Value pred = masks.empty() ? trueValue(rewriter, loc) : masks[r0];
        unsigned asmBits = p.elemBits * p.vec < 16 ? 8 : p.wordBits;
        words = emitPredicatedLoad(rewriter, loc, ptrs[r0], pred, asmBits,
                                   otherWords, op.getCache(), op.getEvict(),
                                   op.getIsVolatile());
      }
      llvm::append_range(results, unpackWords(rewriter, loc, p, words));
    }
    if (!isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, results[0]);
    else
      rewriter.replaceOp(op, packTensor(rewriter, loc, tc, op.getType(), results));
    return success();
  }
};

struct StoreToLLVM : public ConvertOpToLLVMPattern<StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &tc = *getTypeConverter();
    Type elemTy = convertElementType(tc, op.getValue().getType());
    SmallVector<Value> ptrs = unpackTensor(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpackTensor(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackTensor(rewriter, loc, adaptor.getMask());

    // Replicated data is written by one replica: the thread whose
    // replicated lane/warp bits are zero, and the first duplicate register.
    Value threadPred;
    std::optional<txlgpu::LayoutMap> map;
    if (auto tensorTy = dyn_cast<RankedTensorType>(op.getPtr().getType())) {
      map = txlgpu::getLayoutMap(tensorTy);
      if (map && (map->laneFreeMask() || map->warpFreeMask()))
        threadPred = isFirstReplica(rewriter, loc, *map);
    } else {
      // A scalar store is done by one thread (thread 0, or in a role lane 0
      // of its first warp).
      threadPred = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, threadIdX(rewriter, loc),
          i32Const(rewriter, loc, txlgpu::scalarPerformerThread(op)));
    }
    Packing probe = getPacking(rewriter, elemTy, 1);
    unsigned vec = globalVectorWidth(op, op.getPtr().getType(), probe.elemBits);
    Packing p = getPacking(rewriter, elemTy, vec);
    bool plain = masks.empty() && !threadPred &&
                 op.getCache() == CacheModifier::None &&
                 op.getEvict() == EvictionPolicy::Normal;

    for (size_t r0 = 0; r0 < ptrs.size(); r0 += vec) {
      if (map && map->isDuplicateReg(r0))
        continue;
      SmallVector<Value> words =
          packWords(rewriter, loc, p, ArrayRef<Value>(values).slice(r0, vec));
      if (plain && p.elemBits * p.vec >= 16) {
        Value data = words[0];
        if (p.numWords > 1) {
          auto wordsTy = VectorType::get({(int64_t)p.numWords},
                                         rewriter.getIntegerType(p.wordBits));
          data = LLVM::UndefOp::create(rewriter, loc, wordsTy);
          for (auto [i, w] : llvm::enumerate(words))
            data = LLVM::InsertElementOp::create(rewriter, loc, data, w,
                                                 i64Const(rewriter, loc, i));
        }
        LLVM::StoreOp::create(rewriter, loc, data, ptrs[r0],
                              p.elemBits * vec / 8);
        continue;
      }
      Value pred = masks.empty() ? trueValue(rewriter, loc) : masks[r0];
      if (threadPred)
        pred = LLVM::AndOp::create(rewriter, loc, pred, threadPred);
      if (p.elemBits * p.vec < 16) {
        // Single byte: a plain store under an scf-free select of address is
        // not possible, so use the predicated 8-bit form.
        Value byte = LLVM::TruncOp::create(rewriter, loc, rewriter.getI8Type(),
                                           words[0]);
        Value wide = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI16Type(), byte);
        emitPredicatedStore(rewriter, loc, ptrs[r0], pred, 8, {wide},
                            op.getCache(), op.getEvict());
        continue;
      }
      emitPredicatedStore(rewriter, loc, ptrs[r0], pred, p.wordBits, words,
                          op.getCache(), op.getEvict());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::txl::populateMemoryOpPatterns(TXLTypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<LoadToLLVM, StoreToLLVM>(tc);
}
