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

#include <cstdlib>
#include <string>

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

/// Whether `value` is used outside `block` (carried by a loop, or read in
/// a nested region): there its registers' later packing into 32-bit words
/// is out of the instruction selector's sight. Looks through the casts the
/// conversion puts between a value and its not yet converted users.
bool usedOutside(Value value, Block *block, int depth = 0) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(user);
        cast && depth < 4)
      return llvm::any_of(cast->getResults(), [&](Value r) {
        return usedOutside(r, block, depth + 1);
      });
    return user->getBlock() != block || user->hasTrait<OpTrait::IsTerminator>();
  });
}

/// f32 -> f16/bf16 (round to nearest) of an even number of registers whose
/// result leaves the block. (Used in its block, the scalar cvts pair up
/// with the packing already; rounding those in pairs too only moves
/// ptxas's register allocation, e.g. 8 spilled bytes in flash_bwd.)
/// Off by default: TXL_TRUNC_PAIRS=1 turns it on (docs/debugging.md; not
/// in the cache key). Fewer instructions in the attention forward's loop
/// did not make it faster: on the H100 the D128 forward ran 0-6% slower
/// with it (bench/RESULTS.md, session 15), and it made ptxas spill in the
/// three-consumer persistent forward.
bool truncatesPairwise(Operation *op, Type scalarTy, int numRegs) {
  static const bool enabled = [] {
    const char *env = std::getenv("TXL_TRUNC_PAIRS");
    return env && std::string(env) == "1";
  }();
  auto trunc = dyn_cast<arith::TruncFOp>(op);
  return enabled && trunc && !trunc.getRoundingmodeAttr() && numRegs % 2 == 0 &&
         getElementTypeOrSelf(trunc.getIn().getType()).isF32() &&
         (scalarTy.isF16() || scalarTy.isBF16()) &&
         usedOutside(op->getResult(0), op->getBlock());
}

/// Registers 2i and 2i+1 rounded by one vector fptrunc (one
/// cvt.rn.f16x2.f32). Two scalar ones round alike, but when the halves are
/// packed into one 32-bit register in another block (P carried across a
/// loop's back edge into a register-A wgmma), ptxas pairs the scalar cvts
/// into one F2FP with the halves swapped and adds a PRMT per register to
/// swap them back (32 per iteration in the attention forward's loop).
SmallVector<Value> truncatePairs(OpBuilder &b, Location loc,
                                 ArrayRef<Value> regs, Type scalarTy) {
  auto wide = VectorType::get({2}, regs[0].getType());
  auto narrow = VectorType::get({2}, scalarTy);
  SmallVector<Value> out;
  for (size_t r = 0; r + 1 < regs.size(); r += 2) {
    Value pair = LLVM::UndefOp::create(b, loc, wide);
    for (int j = 0; j < 2; ++j)
      pair = LLVM::InsertElementOp::create(
          b, loc, pair, regs[r + j],
          LLVM::ConstantOp::create(b, loc, b.getI32Type(), j));
    Value halves = LLVM::FPTruncOp::create(b, loc, narrow, pair);
    for (int j = 0; j < 2; ++j)
      out.push_back(LLVM::ExtractElementOp::create(
          b, loc, halves, LLVM::ConstantOp::create(b, loc, b.getI32Type(), j)));
  }
  return out;
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
    if (truncatesPairwise(op, scalarTy, numRegs)) {
      results = truncatePairs(rewriter, loc, regsPerOperand[0], scalarTy);
      rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                        resultTy, results));
      return success();
    }
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
