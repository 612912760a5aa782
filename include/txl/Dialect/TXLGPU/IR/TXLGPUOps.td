//===- TXLGPUOps.td - txlgpu operations --------------------*- tablegen -*-===//
#ifndef TXLGPU_OPS_TD
#define TXLGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUDialect.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUAttrs.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUTypes.td"

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

def TXLGPU_LocalAllocOp : TXLGPU_Op<"local_alloc",
    [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "Copy a register tensor into a new shared-memory tile";
  let description = [{
    Every thread writes its registers to their places in the tile's layout;
    the write is then fenced for the async proxy and the CTA synchronized,
    so wgmma (or TMA) may read it. The tile lives at the offset
    AllocateSharedMemory records in `txlgpu.shared_offset`; before writing,
    the CTA synchronizes so a previous use of the same bytes has finished.
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXLGPU_WarpGroupDotOp : TXLGPU_Op<"warp_group_dot",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["c", "d"]>]> {
  let summary = "Asynchronous wgmma: d = a @ b + c, operands in shared memory";
  let description = [{
    Issued by whole warpgroups (sm_90a): a [M, K] and b [K, N] are shared
    tiles with an nvmma_shared layout, c and d carry an nvmma v3 layout.
    The result may only be read after a txlgpu.warp_group_dot_wait that
    takes it.
  }];
  let arguments = (ins TXLGPU_MemDescType:$a, TXLGPU_MemDescType:$b,
                       AnyRankedTensor:$c);
  let results = (outs AnyRankedTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TXLGPU_WarpGroupDotWaitOp : TXLGPU_Op<"warp_group_dot_wait",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "Wait until at most `pendings` wgmma groups are in flight";
  let description = [{
    Returns its inputs (accumulators of earlier warp_group_dot ops) once the
    hardware has finished writing them; uses of the results are ordered
    after the wait.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

#endif
