//===- TXLGPUOps.td - txlgpu operations --------------------*- tablegen -*-===//
#ifndef TXLGPU_OPS_TD
#define TXLGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUDialect.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUAttrs.td"

def TXLGPU_ConvertLayoutOp : TXLGPU_Op<"convert_layout",
    [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move a tensor's elements into another layout";
  let description = [{
    Lowered through registers when the two layouts agree on lanes and warps,
    through warp shuffles when they agree on warps, else through a shared
    memory scratch buffer (offset assigned by AllocateSharedMemory).
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

#endif
