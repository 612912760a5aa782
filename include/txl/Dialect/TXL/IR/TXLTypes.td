//===- TXLTypes.td - txl types -----------------------------*- tablegen -*-===//
#ifndef TXL_TYPES_TD
#define TXL_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "txl/Dialect/TXL/IR/TXLDialect.td"

class TXL_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TXL_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TXL_PointerType : TXL_TypeDef<"Pointer", "ptr"> {
  let summary = "Pointer to an element in a memory space";
  let description = [{
    `!txl.ptr<f16>` points into global memory (address space 1);
    `!txl.ptr<f16, 3>` into shared memory.
  }];
  let parameters = (ins "Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

// Scalar-or-tensor type constraints used by the ops.
def TXL_Ptr : Type<CPred<"::llvm::isa<::mlir::txl::PointerType>($_self)">,
                   "txl pointer">;
def TXL_PtrTensor : RankedTensorOf<[TXL_Ptr]>;
def TXL_PtrLike : AnyTypeOf<[TXL_Ptr, TXL_PtrTensor]>;
def TXL_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;
def TXL_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TXL_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def TXL_Elem : AnyTypeOf<[AnyFloat, AnySignlessInteger, TXL_Ptr]>;
def TXL_Tensor : RankedTensorOf<[AnyFloat, AnySignlessInteger, TXL_Ptr]>;
def TXL_Value : AnyTypeOf<[TXL_Elem, TXL_Tensor]>;

#endif
