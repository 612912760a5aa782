//===- MathOpToLLVM.cpp - scalar math to NVVM intrinsics / libdevice ------===//
//
// NVPTX selects only a few math intrinsics and aborts on the others, so no
// `llvm.log2`-style intrinsic may reach it. fp32 exp/log families use the
// hardware's approximate ex2/lg2/rsqrt (what Triton does; exp2 through
// libdevice's exp2f, which flushes subnormals as Triton's does); the rest call
// libdevice (`__nv_*`), linked in by the target stage. fp16/bf16 compute in
// fp32. IEEE fp32 division is computed without a call (see
// emitIeeeDivF32).
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::txl;

namespace {

Value callIntrinsic(OpBuilder &b, Location loc, StringRef name, Type type,
                    ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name),
                                       args)
      .getResult(0);
}

/// Declares (once) and calls a libdevice function.
Value callLibdevice(OpBuilder &b, Location loc, Operation *anchor,
                    StringRef name, Type type, ValueRange args) {
  auto module = anchor->getParentOfType<ModuleOp>();
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    SmallVector<Type> argTypes(args.getTypes());
    func = LLVM::LLVMFuncOp::create(b, loc, name,
                                    LLVM::LLVMFunctionType::get(type, argTypes));
  }
  return LLVM::CallOp::create(b, loc, func, args).getResult();
}

enum class Fn { Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Erf, Tanh };

/// fp32 implementation of `fn`.
Value emitF32(OpBuilder &b, Location loc, Operation *anchor, Fn fn, Value x) {
  Type f32 = b.getF32Type();
  auto mul = [&](Value v, double c) {
    Value k = LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(c));
    return LLVM::FMulOp::create(b, loc, v, k).getResult();
  };
  switch (fn) {
  case Fn::Exp:
    return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", f32,
                         mul(x, M_LOG2E));
  case Fn::Exp2:
    // libdevice's exp2f, as in Triton: one ex2.approx.ftz under
    // enable_reflect_ftz (the default), ex2.approx (subnormal results kept,
    // at a range check and two multiplies per call) without it.
    return callLibdevice(b, loc, anchor, "__nv_exp2f", f32, x);
  case Fn::Log:
    return mul(callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.f", f32, x), M_LN2);
  case Fn::Log2:
    return callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.f", f32, x);
  case Fn::Sqrt:
    return LLVM::SqrtOp::create(b, loc, x);
  case Fn::Rsqrt:
    return callIntrinsic(b, loc, "llvm.nvvm.rsqrt.approx.f", f32, x);
  case Fn::Sin:
    return callLibdevice(b, loc, anchor, "__nv_sinf", f32, x);
  case Fn::Cos:
    return callLibdevice(b, loc, anchor, "__nv_cosf", f32, x);
  case Fn::Erf:
    return callLibdevice(b, loc, anchor, "__nv_erff", f32, x);
  case Fn::Tanh:
    return callLibdevice(b, loc, anchor, "__nv_tanhf", f32, x);
  }
  llvm_unreachable("covered switch");
}

StringRef libdeviceF64(Fn fn) {
  switch (fn) {
  case Fn::Exp: return "__nv_exp";
  case Fn::Exp2: return "__nv_exp2";
  case Fn::Log: return "__nv_log";
  case Fn::Log2: return "__nv_log2";
  case Fn::Sqrt: return "__nv_sqrt";
  case Fn::Rsqrt: return "__nv_rsqrt";
  case Fn::Sin: return "__nv_sin";
  case Fn::Cos: return "__nv_cos";
  case Fn::Erf: return "__nv_erf";
  case Fn::Tanh: return "__nv_tanh";
  }
  llvm_unreachable("covered switch");
}

template <typename MathOp, Fn fn>
struct ScalarMathToLLVM : public ConvertOpToLLVMPattern<MathOp> {
  using ConvertOpToLLVMPattern<MathOp>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename MathOp::Adaptor;

  LogicalResult
  matchAndRewrite(MathOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type))
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Value result;
    if (type.isF64()) {
      result = callLibdevice(rewriter, loc, op, libdeviceF64(fn), type, x);
    } else if (type.isF32()) {
      result = emitF32(rewriter, loc, op, fn, x);
    } else if (type.isF16() || type.isBF16()) {
      Value wide = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), x);
      result = LLVM::FPTruncOp::create(rewriter, loc, type,
                                       emitF32(rewriter, loc, op, fn, wide));
    } else {
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A math op computed by its libdevice function: `__nv_<base>f` on fp32,
/// `__nv_<base>` on fp64; fp16/bf16 through fp32 (the tl.math /
/// libdevice functions txl lowers without an NVVM intrinsic).
template <typename MathOp>
struct LibdeviceMathToLLVM : public ConvertOpToLLVMPattern<MathOp> {
  using OpAdaptor = typename MathOp::Adaptor;
  LibdeviceMathToLLVM(TXLTypeConverter &tc, StringRef base)
      : ConvertOpToLLVMPattern<MathOp>(tc, /*benefit=*/10), base(base) {}

  LogicalResult
  matchAndRewrite(MathOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> args(adaptor.getOperands());
    Type compute = type;
    if (type.isF16() || type.isBF16()) {
      compute = rewriter.getF32Type();
      for (Value &a : args)
        a = LLVM::FPExtOp::create(rewriter, loc, compute, a);
    } else if (!type.isF32() && !type.isF64()) {
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    }
    std::string name = ("__nv_" + base + (compute.isF32() ? "f" : "")).str();
    Value result = callLibdevice(rewriter, loc, op, name, compute, args);
    if (compute != type)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  StringRef base;
};

/// txl.extern_elementwise: one call of its libdevice function per element
/// (per register of a tensor; the operands share the result's layout).
struct ExternElementwiseToLLVM
    : public ConvertOpToLLVMPattern<ExternElementwiseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultTy = op.getType();
    Type elemTy = convertElementType(*getTypeConverter(), resultTy);
    auto call = [&](ValueRange args) {
      return callLibdevice(rewriter, loc, op, op.getSymbol(), elemTy, args);
    };
    auto tensorTy = dyn_cast<RankedTensorType>(resultTy);
    if (!tensorTy) {
      rewriter.replaceOp(op, call(adaptor.getSrcs()));
      return success();
    }
    int numRegs = txlgpu::getNumRegs(tensorTy);
    SmallVector<SmallVector<Value>> regs;
    for (Value operand : adaptor.getSrcs()) {
      regs.push_back(unpackTensor(rewriter, loc, operand));
      if (int(regs.back().size()) != numRegs)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
    }
    SmallVector<Value> results;
    for (int r = 0; r < numRegs; ++r) {
      SmallVector<Value> args;
      for (auto &operandRegs : regs)
        args.push_back(operandRegs[r]);
      results.push_back(call(args));
    }
    rewriter.replaceOp(
        op, packTensor(rewriter, loc, *getTypeConverter(), tensorTy, results));
    return success();
  }
};

/// x / y rounded to nearest even (IEEE), for fp32 x and y, without a call.
/// NVPTX emits div.rn.f32, which ptxas expands into a fast path and a slow
/// path reached by a call -- and one call anywhere in a kernel makes ptxas
/// serialize every wgmma of the kernel (each waits for the one before). In
/// fp64 no fp32 operand is subnormal or overflows, so a Newton reciprocal
/// and one correction of the quotient give it to within one fp64 ulp;
/// rounding that to fp32 is exact IEEE rounding, since the true quotient
/// of two 24-bit significands lies at least 2^-49 (relative) away from any
/// fp32 rounding boundary it is not on, and none is on one. Infinite, NaN
/// and zero operands make the refined quotient NaN (or, for x = +-0, lose
/// the zero's sign); those take x * rcp(y), which is then exact.
Value emitIeeeDivF32(OpBuilder &b, Location loc, Value x, Value y) {
  Type f64 = b.getF64Type(), f32 = b.getF32Type();
  auto constant = [&](double c) {
    return LLVM::ConstantOp::create(b, loc, f64, b.getF64FloatAttr(c))
        .getResult();
  };
  auto fma = [&](Value p, Value q, Value r) {
    return LLVM::FMAOp::create(b, loc, p, q, r).getResult();
  };
  Value xd = LLVM::FPExtOp::create(b, loc, f64, x);
  Value yd = LLVM::FPExtOp::create(b, loc, f64, y);
  Value negY = LLVM::FNegOp::create(b, loc, yd);
  Value r0 = callIntrinsic(b, loc, "llvm.nvvm.rcp.approx.ftz.d", f64, yd);
  Value r = r0;
  // rcp.approx is good to about 2^-20; each step squares the error.
  for (int step = 0; step < 2; ++step)
    r = fma(r, fma(negY, r, constant(1.0)), r);
  Value q = LLVM::FMulOp::create(b, loc, xd, r);
  q = fma(fma(negY, q, xd), r, q); // the remainder x - y q is exact
  Value special = LLVM::OrOp::create(
      b, loc, LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, q, q),
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, xd,
                           constant(0.0)));
  Value direct = LLVM::FMulOp::create(b, loc, xd, r0);
  Value quotient = LLVM::SelectOp::create(b, loc, special, direct, q);
  return LLVM::FPTruncOp::create(b, loc, f32, quotient);
}

/// Scalar arith.divf on fp32 (fp16/bf16 through fp32, as NVPTX promotes
/// them) unless its fast-math flags allow an approximation (tl.fdiv's
/// default): emitIeeeDivF32. Other types and flags go to arith-to-llvm.
struct IeeeDivFToLLVM : public ConvertOpToLLVMPattern<arith::DivFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type) ||
        !(type.isF32() || type.isF16() || type.isBF16()))
      return failure();
    if (bitEnumContainsAny(op.getFastmath(), arith::FastMathFlags::afn |
                                                 arith::FastMathFlags::arcp |
                                                 arith::FastMathFlags::fast))
      return rewriter.notifyMatchFailure(op, "approximate division allowed");
    Location loc = op.getLoc();
    Value x = adaptor.getLhs(), y = adaptor.getRhs();
    Type f32 = rewriter.getF32Type();
    if (!type.isF32()) {
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
      y = LLVM::FPExtOp::create(rewriter, loc, f32, y);
    }
    Value result = emitIeeeDivF32(rewriter, loc, x, y);
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::txl::populateMathOpPatterns(TXLTypeConverter &tc,
                                       RewritePatternSet &patterns) {
  // Preferred over the upstream math-to-llvm patterns.
  patterns.add<ScalarMathToLLVM<math::ExpOp, Fn::Exp>,
               ScalarMathToLLVM<math::Exp2Op, Fn::Exp2>,
               ScalarMathToLLVM<math::LogOp, Fn::Log>,
               ScalarMathToLLVM<math::Log2Op, Fn::Log2>,
               ScalarMathToLLVM<math::SqrtOp, Fn::Sqrt>,
               ScalarMathToLLVM<math::RsqrtOp, Fn::Rsqrt>,
               ScalarMathToLLVM<math::SinOp, Fn::Sin>,
               ScalarMathToLLVM<math::CosOp, Fn::Cos>,
               ScalarMathToLLVM<math::ErfOp, Fn::Erf>,
               ScalarMathToLLVM<math::TanhOp, Fn::Tanh>>(tc, /*benefit=*/10);
  patterns.add<LibdeviceMathToLLVM<math::AsinOp>>(tc, "asin");
  patterns.add<LibdeviceMathToLLVM<math::AcosOp>>(tc, "acos");
  patterns.add<LibdeviceMathToLLVM<math::AtanOp>>(tc, "atan");
  patterns.add<LibdeviceMathToLLVM<math::Atan2Op>>(tc, "atan2");
  patterns.add<LibdeviceMathToLLVM<math::SinhOp>>(tc, "sinh");
  patterns.add<LibdeviceMathToLLVM<math::CoshOp>>(tc, "cosh");
  patterns.add<LibdeviceMathToLLVM<math::TanOp>>(tc, "tan");
  patterns.add<LibdeviceMathToLLVM<math::AsinhOp>>(tc, "asinh");
  patterns.add<LibdeviceMathToLLVM<math::AcoshOp>>(tc, "acosh");
  patterns.add<LibdeviceMathToLLVM<math::AtanhOp>>(tc, "atanh");
  patterns.add<LibdeviceMathToLLVM<math::ErfcOp>>(tc, "erfc");
  patterns.add<LibdeviceMathToLLVM<math::ExpM1Op>>(tc, "expm1");
  patterns.add<LibdeviceMathToLLVM<math::Log1pOp>>(tc, "log1p");
  patterns.add<LibdeviceMathToLLVM<math::Log10Op>>(tc, "log10");
  patterns.add<LibdeviceMathToLLVM<math::CbrtOp>>(tc, "cbrt");
  patterns.add<LibdeviceMathToLLVM<math::TruncOp>>(tc, "trunc");
  patterns.add<LibdeviceMathToLLVM<math::RoundOp>>(tc, "round");
  patterns.add<LibdeviceMathToLLVM<math::RoundEvenOp>>(tc, "rint");
  patterns.add<LibdeviceMathToLLVM<math::PowFOp>>(tc, "pow");
  patterns.add<ExternElementwiseToLLVM>(tc);
  patterns.add<IeeeDivFToLLVM>(tc, /*benefit=*/10);
}
