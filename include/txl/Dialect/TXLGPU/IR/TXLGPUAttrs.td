//===- TXLGPUAttrs.td - layout encodings -------------------*- tablegen -*-===//
#ifndef TXLGPU_ATTRS_TD
#define TXLGPU_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUDialect.td"

class TXLGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TXLGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TXLGPU_BlockedEncodingAttr : TXLGPU_Attr<"BlockedEncoding", "blocked"> {
  let summary = "Each thread owns sizePerThread contiguous elements";
  let description = [{
    The CTA tile is sizePerThread * threadsPerWarp * warpsPerCTA elements per
    dimension; `order[0]` is the fastest-varying dimension. Tensors larger
    than the tile wrap around in registers, smaller ones are broadcast.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def TXLGPU_SliceEncodingAttr : TXLGPU_Attr<"SliceEncoding", "slice"> {
  let summary = "The parent layout with dimension `dim` removed";
  let description = [{
    What a reduction along `dim` leaves: threads that differed only in `dim`
    now hold the same elements.
  }];
  let parameters = (ins "unsigned":$dim, "Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
}

def TXLGPU_NvidiaMmaEncodingAttr : TXLGPU_Attr<"NvidiaMmaEncoding", "nvmma"> {
  let summary = "Accumulator layout of the tensor-core instructions";
  let description = [{
    version 2: mma.sync m16n8 (sm_80+), warps enumerate warpsPerCTA with N
    fastest, instrShape = [16, 8]. version 3: wgmma (sm_90a), instrShape =
    [16, N, K] per warp, the 4 warps of a warpgroup stacked along M.
    Tensors larger than the warps' tile repeat in registers.
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `{` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]`
        `,` `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
}

def TXLGPU_DotOperandEncodingAttr : TXLGPU_Attr<"DotOperandEncoding", "dot_op"> {
  let summary = "Register layout of a tensor-core operand";
  let description = [{
    Operand `opIdx` (0 = A [M, K], 1 = B [K, N]) of a dot whose accumulator
    has layout `parent`; `kWidth` elements of K share a 32-bit register
    (32 / element bits).
  }];
  let parameters = (ins "unsigned":$opIdx, "Attribute":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `}` `>`
  }];
}

def TXLGPU_TMemMessageEncodingAttr
    : TXLGPU_Attr<"TMemMessageEncoding", "tmem_message"> {
  let summary = "Registers as a tcgen05.ld/st message of a shape moves them";
  let description = [{
    A [128, N] or [64, N] tensor read from or written to tensor memory with
    tcgen05.ld/st of shape `lanes`x`bits` (32x32b, 16x64b, 16x128b or
    16x256b) by `numWarps` warps (4 or 8), of `elemBits`-bit elements. The
    exact map is ::txl::tmemMessageLayout. (The 32x32b message of a 128-row
    tensor is written as the equivalent blocked layout.)
  }];
  let parameters = (ins "unsigned":$lanes, "unsigned":$bits,
                        "unsigned":$numWarps, "unsigned":$elemBits);
  let assemblyFormat = [{
    `<` `{` `lanes` `=` $lanes `,` `bits` `=` $bits `,` `warps` `=` $numWarps
        `,` `elemBits` `=` $elemBits `}` `>`
  }];
}

def TXLGPU_NVMMASharedEncodingAttr
    : TXLGPU_Attr<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "Shared-memory layout that wgmma and TMA read and write";
  let description = [{
    Rows of max(swizzle, 16) bytes along the contiguous dimension order[0];
    a wider dimension is split into column chunks of that width, each a
    full block of all rows (as a TMA box lands). Within every 1024-byte
    group the 16-byte chunks are XOR-swizzled (32/64/128-byte modes, 0 =
    none); buffers are 1024-byte aligned so the hardware's address-based
    swizzle and ours agree. The exact map is sharedSwizzledLayout.
  }];
  let parameters = (ins "unsigned":$swizzleBytes, "unsigned":$elemBits,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `swizzle` `=` $swizzleBytes `,` `elemBits` `=` $elemBits `,`
        `order` `=` `[` $order `]` `}` `>`
  }];
}

def TXLGPU_BarrierEncodingAttr : TXLGPU_Attr<"BarrierEncoding", "barrier"> {
  let summary = "Marks a shared buffer of 64-bit mbarriers";
  let description = [{
    The encoding of memdescs made by txlgpu.mbar_alloc: one 8-byte
    mbarrier per stage, initialized at kernel entry.
  }];
}

def TXLGPU_TensorMemoryEncodingAttr
    : TXLGPU_Attr<"TensorMemoryEncoding", "tensor_memory"> {
  let summary = "Marks a buffer in tensor memory (Blackwell TMEM)";
  let description = [{
    The encoding of memdescs made by txlgpu.tmem_alloc: [stages, 128, N]
    (or one stage [128, N]) elements in the SM's tensor memory, row r in
    TMEM lane r, 32-bit columns (a 16-bit element shares a column with its
    right neighbour). Lowered to a TMEM address (`!llvm.ptr<6>`, lane in
    bits 31..16, column in bits 15..0), not a shared-memory pointer.
  }];
}

#endif
