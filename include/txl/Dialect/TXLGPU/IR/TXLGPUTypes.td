//===- TXLGPUTypes.td - txlgpu types ------------------------*- tablegen -*-===//
#ifndef TXLGPU_TYPES_TD
#define TXLGPU_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUDialect.td"

def TXLGPU_MemDescType : TypeDef<TXLGPU_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "A tile in shared memory";
  let description = [{
    A buffer of `shape` elements in shared memory laid out by `encoding`
    (e.g. #txlgpu.nvmma_shared). Lowered to a pointer in address space 3;
    its place in the CTA's shared memory is an offset given by
    AllocateSharedMemory to the op that allocates it.
    Example: `!txlgpu.memdesc<64x32xf16, #txlgpu.nvmma_shared<...>>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType, "Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<llvm::ArrayRef<int64_t>> shape,
                                 Type elementType) const {
      return MemDescType::get(getContext(), shape.value_or(getShape()),
                              elementType, getEncoding());
    }
    /// The bytes the buffer's elements take, sub-byte elements packed.
    int64_t getSizeInBytes() const {
      int64_t n = 1;
      for (int64_t d : getShape())
        n *= d;
      return n * std::max(1u, getElementType().getIntOrFloatBitWidth()) / 8;
    }
  }];
}

def TXLGPU_TensorDescType : TypeDef<TXLGPU_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "A TMA descriptor kernel argument";
  let description = [{
    A 128-byte CUtensorMap passed by value (a __grid_constant__ kernel
    parameter) describing a global tensor whose TMA box is `blockShape`
    elements of `elementType`. The runtime encodes it at launch from the
    host descriptor and the swizzle the compiler chose for the shared
    buffers it fills (kernel metadata), so writer and reader agree.
    Example: `!txlgpu.tensordesc<128x64xf16>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$blockShape,
                        "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
}

#endif
