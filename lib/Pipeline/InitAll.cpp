//===- InitAll.cpp - register every dialect and pass txl uses -------------===//
#include "txl/InitAll.h"

#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Analysis/AxisInfo.h"
#include "txl/Conversion/Passes.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

void txl::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::txl::TXLDialect, mlir::txlgpu::TXLGPUDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::func::FuncDialect,
                  mlir::cf::ControlFlowDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
}

void txl::registerAllPasses() {
  mlir::txlgpu::registerTXLGPUPasses();
  mlir::txl::registerTXLConversionPasses();
  txl::registerTestAxisInfoPass();
  mlir::registerTransformsPasses();
  mlir::registerSCFToControlFlowPass();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::registerConvertNVVMToLLVMPass();
  mlir::registerArithToLLVMConversionPass();
  mlir::registerConvertMathToLLVMPass();
  mlir::registerConvertControlFlowToLLVMPass();
}
