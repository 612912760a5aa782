//===- ConvertTXLGPUToLLVM.cpp - the txlgpu -> LLVM+NVVM conversion -------===//
#include "Utility.h"
#include "txl/Conversion/Passes.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/MaxNReg.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/Matchers.h"

#include <bitset>

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

/// Picks the named barriers of the per-warpgroup barriers (Utility's
/// barrier(): group g waits at top - g) clear of the ids the kernel's
/// txl.bar_wait / txl.bar_arrive use. A user barrier sharing an id with
/// another warpgroup's internal one would merge the two groups' arrivals:
/// the TXL project's sparse MLA kernel syncs warpgroup 0 at id 13, which
/// was warpgroup 2's. Ids that are not constants cannot be checked (the
/// documentation asks for ids below the compiler's).
LogicalResult chooseGroupBarrierIds(ModuleOp module) {
  int groups = moduleInt(module, txlgpu::TXLGPUDialect::kNumWarpgroupsAttr, 1);
  int extra = moduleInt(module, txlgpu::kNumExtraWarpsAttr, 0);
  if (groups <= 1 && extra == 0)
    return success(); // bar.sync 0 across the CTA
  int needed = groups + (extra > 0 ? 1 : 0);
  std::bitset<16> used;
  Operation *firstUse = nullptr;
  module.walk([&](LLVM::CallIntrinsicOp call) {
    StringRef name = call.getIntrin();
    if (name != "llvm.nvvm.barrier.cta.sync.count" &&
        name != "llvm.nvvm.barrier.cta.arrive.count")
      return;
    APInt id;
    if (!matchPattern(call.getArgs()[0], m_ConstantInt(&id)) ||
        id.getZExtValue() > 15)
      return;
    used.set(id.getZExtValue());
    if (!firstUse)
      firstUse = call;
  });
  for (int top = 15; top - needed + 1 >= 1; --top) {
    bool clear = true;
    for (int g = 0; g < needed; ++g)
      clear &= !used.test(top - g);
    if (!clear)
      continue;
    if (top != 15)
      module->setAttr(
          kGroupBarrierTopAttr,
          IntegerAttr::get(IntegerType::get(module.getContext(), 32), top));
    return success();
  }
  return firstUse->emitError()
         << "the kernel's named barriers leave no " << needed
         << " consecutive ids in 1..15 for the compiler's per-warpgroup "
            "barriers (one per warpgroup"
         << (extra > 0 ? ", one for the extra warps" : "")
         << "); use fewer distinct txl.bar_wait/bar_arrive ids";
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
    if (failed(chooseGroupBarrierIds(module)))
      return signalPassFailure();

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
