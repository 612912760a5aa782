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

#endif
