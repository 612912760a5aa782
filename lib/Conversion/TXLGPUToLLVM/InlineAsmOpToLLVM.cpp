//===- InlineAsmOpToLLVM.cpp - elementwise inline asm to llvm.inline_asm --===//
//
// Each thread runs the asm once per `pack` of its registers. Operands and
// results narrower than 32 bits travel packed, min(32 / bits, pack) to a
// vector register (what "r" constraints of tl.inline_asm_elementwise code
// expect: four int8 in one .b32); a thread whose register count is not a
// multiple of `pack` pads the last instance with undefined elements and
// drops their results (Triton's lowering does the same).
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

unsigned bitsOf(Type t) {
  return isa<LLVM::LLVMPointerType>(t) ? 64 : t.getIntOrFloatBitWidth();
}

/// Elements of `t` one asm operand holds.
unsigned elementsPerRegister(Type t, unsigned pack) {
  return std::min(std::max(32u / bitsOf(t), 1u), pack);
}

struct ElementwiseInlineAsmToLLVM
    : public ConvertOpToLLVMPattern<ElementwiseInlineAsmOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned pack = op.getPackedElement();
    auto tensorTy = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    int numElems = tensorTy ? txlgpu::getNumRegs(tensorTy) : 1;

    // operandRegs[operand][element], padded to whole packs.
    int padded = (numElems + pack - 1) / pack * pack;
    SmallVector<SmallVector<Value>> operandRegs;
    for (Value operand : adaptor.getArgs()) {
      SmallVector<Value> regs = tensorTy ? unpackTensor(rewriter, loc, operand)
                                         : SmallVector<Value>{operand};
      if (int(regs.size()) != numElems)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
      Type t = regs.front().getType();
      while (int(regs.size()) < padded)
        regs.push_back(LLVM::UndefOp::create(rewriter, loc, t));
      operandRegs.push_back(std::move(regs));
    }
    SmallVector<Type> resultElemTys;
    for (Type t : op->getResultTypes())
      resultElemTys.push_back(convertElementType(*getTypeConverter(), t));

    // The asm's own result types: per result, pack / perReg registers.
    SmallVector<Type> asmTypes;
    for (Type t : resultElemTys) {
      unsigned perReg = elementsPerRegister(t, pack);
      Type regTy = perReg > 1 ? Type(VectorType::get(perReg, t)) : t;
      asmTypes.append(pack / perReg, regTy);
    }
    Type asmResultTy =
        asmTypes.size() == 1
            ? asmTypes.front()
            : LLVM::LLVMStructType::getLiteral(rewriter.getContext(), asmTypes);

    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (int first = 0; first < padded; first += pack) {
      SmallVector<Value> asmOperands;
      for (auto &regs : operandRegs)
        appendPacked(rewriter, loc, ArrayRef(regs).slice(first, pack),
                     asmOperands);
      Value out =
          LLVM::InlineAsmOp::create(rewriter, loc, asmResultTy, asmOperands,
                                    op.getAsmString(), op.getConstraints(),
                                    /*has_side_effects=*/!op.getPure(),
                                    /*is_align_stack=*/false,
                                    LLVM::tailcallkind::TailCallKind::None,
                                    LLVM::AsmDialectAttr(), ArrayAttr())
              .getResult(0);
      unsigned field = 0;
      for (auto [i, t] : llvm::enumerate(resultElemTys)) {
        unsigned perReg = elementsPerRegister(t, pack);
        for (unsigned k = 0; k < pack / perReg; ++k) {
          Value reg =
              asmTypes.size() == 1
                  ? out
                  : LLVM::ExtractValueOp::create(rewriter, loc, out, field);
          ++field;
          if (perReg == 1) {
            results[i].push_back(reg);
            continue;
          }
          for (unsigned e = 0; e < perReg; ++e)
            results[i].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, reg, i32Const(rewriter, loc, e)));
        }
      }
    }
    SmallVector<Value> replacements;
    for (auto [i, r] : llvm::enumerate(op->getResults())) {
      results[i].resize(numElems);
      replacements.push_back(tensorTy ? packTensor(rewriter, loc,
                                                   *getTypeConverter(),
                                                   r.getType(), results[i])
                                      : results[i].front());
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

  /// `elems` (one pack of one operand) as asm operands: vectors of up to 32
  /// bits for narrow types, one operand per element otherwise.
  static void appendPacked(OpBuilder &b, Location loc, ArrayRef<Value> elems,
                           SmallVectorImpl<Value> &out) {
    Type t = elems.front().getType();
    unsigned perReg = elementsPerRegister(t, elems.size());
    if (perReg == 1) {
      out.append(elems.begin(), elems.end());
      return;
    }
    auto vecTy = VectorType::get(perReg, t);
    for (size_t first = 0; first < elems.size(); first += perReg) {
      Value v = LLVM::UndefOp::create(b, loc, vecTy);
      for (unsigned e = 0; e < perReg; ++e)
        v = LLVM::InsertElementOp::create(b, loc, v, elems[first + e],
                                          i32Const(b, loc, e));
      out.push_back(v);
    }
  }
};

} // namespace

void mlir::txl::populateInlineAsmOpPatterns(TXLTypeConverter &tc,
                                            RewritePatternSet &patterns) {
  patterns.add<ElementwiseInlineAsmToLLVM>(tc);
}
