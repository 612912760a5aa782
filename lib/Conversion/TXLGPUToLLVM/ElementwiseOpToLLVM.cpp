//===- ElementwiseOpToLLVM.cpp - arith/math on tensors, per register ------===//
//
// An elementwise op on tensors becomes the same op on each register's
// scalars; the scalar ops are then lowered by the arith/math patterns in the
// same conversion. All operands share the result's layout (AssignLayouts
// guarantees it), so register i of every operand is the same element.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

bool hasEncodedTensor(TypeRange types) {
  return llvm::any_of(types, [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.getEncoding();
  });
}

bool keepsFloatAsBits(Operation *op) {
  auto asBits = [](Type t) {
    return isa<FloatType>(getElementTypeOrSelf(t)) &&
           !isa<FloatType>(storageType(getElementTypeOrSelf(t)));
  };
  return llvm::any_of(op->getOperandTypes(), asBits) ||
         llvm::any_of(op->getResultTypes(), asBits);
}

struct ElementwiseOnTensors : public ConversionPattern {
  ElementwiseOnTensors(TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/10, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((ns != "arith" && ns != "math") || op->getNumRegions() != 0 ||
        op->getNumResults() != 1 ||
        !hasEncodedTensor(op->getResultTypes()))
      return failure();
    if (isa<arith::ConstantOp>(op))
      return failure(); // DenseConstantToRegisters handles it.
    // A float the converter keeps as integer bits (fp8) cannot be rebuilt
    // op by op: the op would be invalid (Fp8OpToLLVM.cpp lowers those).
    if (!isa<arith::SelectOp>(op) && keepsFloatAsBits(op))
      return rewriter.notifyMatchFailure(op, "float stored as integer bits");
    auto resultTy = cast<RankedTensorType>(op->getResult(0).getType());
    int numRegs = txlgpu::getNumRegs(resultTy);
    Location loc = op->getLoc();

    SmallVector<SmallVector<Value>> regsPerOperand;
    for (auto [orig, conv] : llvm::zip(op->getOperands(), operands)) {
      if (isa<RankedTensorType>(orig.getType()))
        regsPerOperand.push_back(unpackTensor(rewriter, loc, conv));
      else // scalar operand, e.g. the condition of a select
        regsPerOperand.push_back(SmallVector<Value>(numRegs, conv));
      if ((int)regsPerOperand.back().size() != numRegs)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
    }
    Type scalarTy = getTypeConverter()->convertType(resultTy.getElementType());
    SmallVector<Value> results;
    for (int r = 0; r < numRegs; ++r) {
      OperationState state(loc, op->getName());
      for (auto &regs : regsPerOperand)
        state.addOperands(regs[r]);
      state.addTypes(scalarTy);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                      resultTy, results));
    return success();
  }
};

/// `arith.constant dense<c> : tensor<...>` -> the scalar in every register.
struct DenseConstantToRegisters
    : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.getEncoding())
      return failure();
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "only splat tensor constants");
    Type elemTy = getTypeConverter()->convertType(type.getElementType());
    Value scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(), elemTy,
                                            dense.getSplatValue<TypedAttr>());
    SmallVector<Value> regs(txlgpu::getNumRegs(type), scalar);
    rewriter.replaceOp(op, packTensor(rewriter, op.getLoc(),
                                      *getTypeConverter(), type, regs));
    return success();
  }
};

} // namespace

void mlir::txl::populateElementwiseOpPatterns(TXLTypeConverter &tc,
                                              RewritePatternSet &patterns) {
  patterns.add<ElementwiseOnTensors>(tc, patterns.getContext());
  patterns.add<DenseConstantToRegisters>(tc, /*benefit=*/10);
}
