//===- ConvertTXLGPUToLLVM.cpp - the txlgpu -> LLVM+NVVM conversion -------===//
#include "Utility.h"
#include "txl/Conversion/Passes.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/MaxNReg.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"

namespace mlir::txl {
#define GEN_PASS_DEF_CONVERTTXLGPUTOLLVM
#include "txl/Conversion/Passes.h.inc"
} // namespace mlir::txl

using namespace mlir;
using namespace mlir::txl;

namespace {

/// `extern __shared__` array every scratch and buffer offset is taken from.
void declareSharedMemory(ModuleOp module) {
  OpBuilder b(module.getBodyRegion());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  auto global = LLVM::GlobalOp::create(
      b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::External,
      "global_smem", Attribute(), /*alignment=*/1024, /*addrSpace=*/3);
  (void)global;
}

int moduleInt(ModuleOp module, StringRef name, int fallback) {
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return fallback;
}

/// A kernel that builds TMA descriptors (txlgpu.make_tensor_desc) takes
/// one more parameter after the user's: the global scratch buffer the
/// runtime allocates (programs x CTAs per program x
/// txlgpu.global_scratch bytes), where each descriptor's map lives.
LogicalResult appendGlobalScratch(ModuleOp module) {
  LogicalResult result = success();
  module.walk([&](func::FuncOp func) {
    SmallVector<txlgpu::MakeTensorDescOp> makes;
    func.walk([&](txlgpu::MakeTensorDescOp op) { makes.push_back(op); });
    if (makes.empty())
      return;
    if (!func->hasAttr(kKernelAttr) || func.isExternal()) {
      makes.front().emitError("tl.make_tensor_descriptor must be called in "
                              "a kernel (helpers are inlined)");
      result = failure();
      return;
    }
    MLIRContext *ctx = module.getContext();
    Type ptr = PointerType::get(IntegerType::get(ctx, 8), 1);
    unsigned index = func.getNumArguments();
    if (failed(
            func.insertArgument(index, ptr, DictionaryAttr(), func.getLoc()))) {
      result = failure();
      return;
    }
    for (txlgpu::MakeTensorDescOp op : makes)
      op.getScratchMutable().assign(func.getArgument(index));
  });
  return result;
}

/// A TMA descriptor argument becomes the 128-byte CUtensorMap passed by
/// value (`.param .align 64 .b8 [128]`); grid_constant lets the kernel take
/// its address (cvta.param) instead of copying it to local memory, which
/// cp.async.bulk.tensor could not use.
void markTensorMapParam(LLVM::LLVMFuncOp func, unsigned i) {
  if (!func.getArgAttr(i, txlgpu::TXLGPUDialect::kTMASwizzleAttr))
    return;
  func.removeArgAttr(i, txlgpu::TXLGPUDialect::kTMASwizzleAttr);
  func.removeArgAttr(i, txlgpu::TXLGPUDialect::kTMABoxAttr);
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
  func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                  b.getI64IntegerAttr(64));
  func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                  UnitAttr::get(ctx));
}

/// Marks the kernel for NVPTX: `.entry`, the thread count, the launch
/// option maxnreg (`.maxnreg`, on the entry only) and, so that setmaxnreg
/// is honoured later, one CTA per SM as the register-cap hint.
void markKernels(ModuleOp module) {
  int maxnreg = moduleInt(module, txlgpu::kMaxnregAttr, 0);
  int threads =
      (moduleInt(module, txlgpu::TXLGPUDialect::kNumWarpsAttr, 4) *
           moduleInt(module, txlgpu::TXLGPUDialect::kNumWarpgroupsAttr, 1) +
       moduleInt(module, txlgpu::kNumExtraWarpsAttr, 0)) *
      32;
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (!func->hasAttr(kKernelAttr))
      return;
    func->removeAttr(kKernelAttr);
    MLIRContext *ctx = func.getContext();
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
    func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  DenseI32ArrayAttr::get(ctx, {threads, 1, 1}));
    if (maxnreg)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    IntegerAttr::get(IntegerType::get(ctx, 32), maxnreg));
    // setmaxnreg needs ptxas to know the register budget at entry: with
    // maxntid and one CTA per SM it is 64K / threads.
    bool reallocates = false;
    func.walk([&](NVVM::SetMaxRegisterOp) { reallocates = true; });
    if (reallocates)
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    IntegerAttr::get(IntegerType::get(ctx, 32), 1));
    // Argument attributes of the front end are not LLVM's.
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      func.removeArgAttr(i, kDivisibilityAttr);
      func.removeArgAttr(i, kEqualsOneAttr);
      markTensorMapParam(func, i);
    }
  });
}

struct ConvertTXLGPUToLLVMPass
    : public mlir::txl::impl::ConvertTXLGPUToLLVMBase<ConvertTXLGPUToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    declareSharedMemory(module);
    declareDebugRecord(module);
    if (failed(appendGlobalScratch(module)))
      return signalPassFailure();
    markWaitsForAsyncCopies(module);

    TXLTypeConverter typeConverter(ctx);
    RewritePatternSet patterns(ctx);
    populateElementwiseOpPatterns(typeConverter, patterns);
    populateMathOpPatterns(typeConverter, patterns);
    populateFp8OpPatterns(typeConverter, patterns);
    populateSharedMemoryOpPatterns(typeConverter, patterns);
    populateViewOpPatterns(typeConverter, patterns);
    populateMemoryOpPatterns(typeConverter, patterns);
    populateAtomicOpPatterns(typeConverter, patterns);
    populateReduceOpPatterns(typeConverter, patterns);
    populateScanOpPatterns(typeConverter, patterns);
    populateHistogramOpPatterns(typeConverter, patterns);
    populateGatherOpPatterns(typeConverter, patterns);
    populateInlineAsmOpPatterns(typeConverter, patterns);
    populateConvertLayoutOpPatterns(typeConverter, patterns);
    populateSPMDOpPatterns(typeConverter, patterns);
    populateDotOpPatterns(typeConverter, patterns);
    populateWarpGroupDotOpPatterns(typeConverter, patterns);
    populatePrintOpPatterns(typeConverter, patterns);
    populateTMAOpPatterns(typeConverter, patterns);
    populateTensorMemoryOpPatterns(typeConverter, patterns);
    populateTCGen05MMAOpPatterns(typeConverter, patterns);
    populateClusterLaunchControlOpPatterns(typeConverter, patterns);
    populateAsyncCopyOpPatterns(typeConverter, patterns);
    arith::populateArithToLLVMConversionPatterns(typeConverter, patterns);
    populateMathToLLVMConversionPatterns(typeConverter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(typeConverter, patterns);
    populateFuncToLLVMConversionPatterns(typeConverter, patterns);

    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    target.addIllegalDialect<TXLDialect, txlgpu::TXLGPUDialect,
                             arith::ArithDialect, math::MathDialect,
                             cf::ControlFlowDialect, func::FuncDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    markKernels(module);
  }
};

} // namespace
