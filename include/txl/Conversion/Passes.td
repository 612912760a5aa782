//===- Passes.td - txl conversion passes -------------------*- tablegen -*-===//
#ifndef TXL_CONVERSION_PASSES_TD
#define TXL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTXLGPUToLLVM : Pass<"txl-convert-txlgpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower txlgpu IR to the LLVM and NVVM dialects";
  let description = [{
    Each tensor becomes an LLVM struct of the scalars one thread holds (its
    registers, in the order of the layout's register dimension). Every op is
    lowered per layout through the linear-layout maps; arith/math/cf/func
    are lowered with the upstream patterns in the same conversion.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect"];
}

#endif
