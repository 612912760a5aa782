//===- Fp8OpToLLVM.cpp - arith on 8-bit floats, which LLVM cannot type ----===//
//
// LLVM has no fp8 type, so the type converter keeps an fp8 value as its i8
// bit pattern. An arith op on fp8 therefore cannot be rebuilt on the
// converted scalars the way ElementwiseOnTensors rebuilds other ops:
// `arith.truncf f32 -> i8` is no valid op, and the conversion driver
// folding one crashed txlc (a release build of LLVM checks nothing). Every
// arith/math op that touches fp8 is lowered here instead:
//   - extf/truncf to or from fp8 become the hardware's paired conversions
//     (sm_89+): e4m3x2/e5m2x2 -> f16x2 exactly, and f32 pairs -> fp8x2
//     rounding to nearest even and saturating to the largest finite value
//     (.rn.satfinite, what Triton emits); other float types go through f32
//     (f16/bf16 -> f32 is exact, f64 -> f32 rounds once more);
//   - fp8 constants become their bit patterns;
//   - any other op computes in f32 and rounds its fp8 result back.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

bool isFp8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(t));
}

/// The PTX name of an fp8 format: "e4m3" or "e5m2".
StringRef ptxFormat(Type t) {
  return isa<Float8E4M3FNType>(getElementTypeOrSelf(t)) ? "e4m3" : "e5m2";
}

bool touchesFp8(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isFp8) ||
         llvm::any_of(op->getResultTypes(), isFp8);
}

Value asmOne(OpBuilder &b, Location loc, Type result, StringRef text,
             StringRef constraints, ValueRange operands) {
  return LLVM::InlineAsmOp::create(b, loc, result, operands, text, constraints,
                                   /*has_side_effects=*/false,
                                   /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

/// fp8 bit patterns (i8) -> f16, two per cvt.rn.f16x2.<fmt>x2 (exact).
SmallVector<Value> fp8ToF16(OpBuilder &b, Location loc, ArrayRef<Value> bytes,
                            StringRef fmt) {
  Type i16 = b.getI16Type(), i32 = b.getI32Type(), f16 = b.getF16Type();
  std::string text = ("cvt.rn.f16x2." + fmt + "x2 $0, $1;").str();
  SmallVector<Value> out;
  for (size_t i = 0; i < bytes.size(); i += 2) {
    Value lo = LLVM::ZExtOp::create(b, loc, i16, bytes[i]);
    Value pair = lo;
    if (i + 1 < bytes.size()) {
      Value hi = LLVM::ZExtOp::create(b, loc, i16, bytes[i + 1]);
      hi = LLVM::ShlOp::create(b, loc, hi,
                               LLVM::ConstantOp::create(b, loc, i16, 8));
      pair = LLVM::OrOp::create(b, loc, lo, hi);
    }
    Value halves = asmOne(b, loc, i32, text, "=r,h", pair);
    Value vec =
        LLVM::BitcastOp::create(b, loc, VectorType::get({2}, f16), halves);
    out.push_back(
        LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, 0)));
    if (i + 1 < bytes.size())
      out.push_back(
          LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, 1)));
  }
  return out;
}

/// f32 values -> fp8 bit patterns (i8), two per
/// cvt.rn.satfinite.<fmt>x2.f32 (its first source is the upper byte).
SmallVector<Value> f32ToFp8(OpBuilder &b, Location loc, ArrayRef<Value> floats,
                            StringRef fmt) {
  Type i8 = b.getI8Type(), i16 = b.getI16Type();
  std::string text = ("cvt.rn.satfinite." + fmt + "x2.f32 $0, $1, $2;").str();
  Value zero =
      LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(0.0));
  SmallVector<Value> out;
  for (size_t i = 0; i < floats.size(); i += 2) {
    bool both = i + 1 < floats.size();
    Value hi = both ? floats[i + 1] : zero;
    Value pair = asmOne(b, loc, i16, text, "=h,f,f", ValueRange{hi, floats[i]});
    out.push_back(LLVM::TruncOp::create(b, loc, i8, pair));
    if (both) {
      Value shifted = LLVM::LShrOp::create(
          b, loc, pair, LLVM::ConstantOp::create(b, loc, i16, 8));
      out.push_back(LLVM::TruncOp::create(b, loc, i8, shifted));
    }
  }
  return out;
}

/// Any float (fp8 as its bits) -> f32.
SmallVector<Value> toF32(OpBuilder &b, Location loc, ArrayRef<Value> regs,
                         Type elem) {
  Type f32 = b.getF32Type();
  SmallVector<Value> halves =
      isFp8(elem) ? fp8ToF16(b, loc, regs, ptxFormat(elem))
                  : SmallVector<Value>(regs.begin(), regs.end());
  SmallVector<Value> out;
  for (Value v : halves) {
    unsigned width = cast<FloatType>(v.getType()).getWidth();
    if (width < 32)
      v = LLVM::FPExtOp::create(b, loc, f32, v);
    else if (width > 32)
      v = LLVM::FPTruncOp::create(b, loc, f32, v);
    out.push_back(v);
  }
  return out;
}

/// f32 -> `elem` (fp8 as its bits).
SmallVector<Value> fromF32(OpBuilder &b, Location loc, ArrayRef<Value> regs,
                           Type elem) {
  if (isFp8(elem))
    return f32ToFp8(b, loc, regs, ptxFormat(elem));
  unsigned width = cast<FloatType>(elem).getWidth();
  SmallVector<Value> out;
  for (Value v : regs) {
    if (width < 32)
      v = LLVM::FPTruncOp::create(b, loc, elem, v);
    else if (width > 32)
      v = LLVM::FPExtOp::create(b, loc, elem, v);
    out.push_back(v);
  }
  return out;
}

/// The hardware converts fp8 from sm_89 (Ada) on.
LogicalResult requireFp8Conversions(Operation *op, PatternRewriter &rewriter) {
  if (targetSM(op) >= 89)
    return success();
  op->emitError("converting to or from an 8-bit float needs sm_89 or later "
                "(cvt ...e4m3x2/e5m2x2); the target has no such instruction");
  return failure();
}

/// Registers of a converted operand: a tensor's struct fields, or the
/// scalar itself.
SmallVector<Value> registersOf(OpBuilder &b, Location loc, Value converted) {
  return unpackTensor(b, loc, converted);
}

Value repack(OpBuilder &b, Location loc, const TypeConverter &tc, Type type,
             ArrayRef<Value> regs) {
  if (isa<RankedTensorType>(type))
    return packTensor(b, loc, tc, type, regs);
  return regs.front();
}

/// extf/truncf to or from fp8 (scalar or tensor).
struct Fp8Conversion : public ConversionPattern {
  Fp8Conversion(TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/20, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op) || !touchesFp8(op))
      return failure();
    if (failed(requireFp8Conversions(op, rewriter)))
      return failure();
    Location loc = op->getLoc();
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    Type resultTy = op->getResult(0).getType();
    Type to = getElementTypeOrSelf(resultTy);
    SmallVector<Value> regs = registersOf(rewriter, loc, operands[0]);
    SmallVector<Value> out;
    if (isFp8(from) && to.isF16())
      out = fp8ToF16(rewriter, loc, regs, ptxFormat(from));
    else
      out = fromF32(rewriter, loc, toF32(rewriter, loc, regs, from), to);
    rewriter.replaceOp(
        op, repack(rewriter, loc, *getTypeConverter(), resultTy, out));
    return success();
  }
};

/// `arith.constant` of fp8 (scalar or splat tensor): its bit pattern.
struct Fp8Constant : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  Fp8Constant(TXLTypeConverter &tc)
      : ConvertOpToLLVMPattern(tc, /*benefit=*/20) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isFp8(op.getType()))
      return failure();
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (tensor && !tensor.getEncoding())
      return failure();
    Attribute value = op.getValue();
    if (auto splat = dyn_cast<SplatElementsAttr>(value))
      value = splat.getSplatValue<Attribute>();
    auto f = dyn_cast<FloatAttr>(value);
    if (!f)
      return rewriter.notifyMatchFailure(op, "only splat fp8 constants");
    Type i8 = rewriter.getI8Type();
    Value bits = LLVM::ConstantOp::create(
        rewriter, op.getLoc(), i8,
        rewriter.getIntegerAttr(i8, f.getValue().bitcastToAPInt()));
    int n = tensor ? txlgpu::getNumRegs(tensor) : 1;
    rewriter.replaceOp(op, repack(rewriter, op.getLoc(), *getTypeConverter(),
                                  op.getType(), SmallVector<Value>(n, bits)));
    return success();
  }
};

/// Any other arith/math op with fp8 operands or results: computed in f32,
/// an fp8 result rounded back. select only moves bits, so it is left to the
/// generic patterns.
struct Fp8ComputeInF32 : public ConversionPattern {
  Fp8ComputeInF32(TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/20, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((ns != "arith" && ns != "math") || op->getNumRegions() != 0 ||
        op->getNumResults() != 1 || !touchesFp8(op) ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, arith::SelectOp>(
            op))
      return failure();
    if (failed(requireFp8Conversions(op, rewriter)))
      return failure();
    Location loc = op->getLoc();
    Type resultTy = op->getResult(0).getType();
    Type resultElem = getElementTypeOrSelf(resultTy);
    SmallVector<SmallVector<Value>> regsPerOperand;
    for (auto [orig, conv] : llvm::zip(op->getOperands(), operands)) {
      SmallVector<Value> regs = registersOf(rewriter, loc, conv);
      Type elem = getElementTypeOrSelf(orig.getType());
      regsPerOperand.push_back(isFp8(elem) ? toF32(rewriter, loc, regs, elem)
                                           : regs);
    }
    size_t n = regsPerOperand.front().size();
    for (auto &regs : regsPerOperand)
      if (regs.size() != n)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
    Type computeTy = isFp8(resultElem)
                         ? rewriter.getF32Type()
                         : getTypeConverter()->convertType(resultElem);
    SmallVector<Value> results;
    for (size_t r = 0; r < n; ++r) {
      OperationState state(loc, op->getName());
      for (auto &regs : regsPerOperand)
        state.addOperands(regs[r]);
      state.addTypes(computeTy);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    if (isFp8(resultElem))
      results = f32ToFp8(rewriter, loc, results, ptxFormat(resultElem));
    rewriter.replaceOp(
        op, repack(rewriter, loc, *getTypeConverter(), resultTy, results));
    return success();
  }
};

} // namespace

void mlir::txl::populateFp8OpPatterns(TXLTypeConverter &tc,
                                      RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<Fp8Conversion, Fp8ComputeInF32>(tc, ctx);
  patterns.add<Fp8Constant>(tc);
}
