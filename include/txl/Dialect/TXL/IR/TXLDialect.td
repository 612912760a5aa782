//===- TXLDialect.td - The txl tile dialect ----------------*- tablegen -*-===//
#ifndef TXL_DIALECT_TD
#define TXL_DIALECT_TD

include "mlir/IR/OpBase.td"

def TXL_Dialect : Dialect {
  let name = "txl";
  let cppNamespace = "::mlir::txl";
  let summary = "Tile-level IR: tensors of scalars and pointers, no layouts";
  let description = [{
    The front end emits this dialect. Tensors are builtin ranked tensors
    without encodings; elementwise arithmetic is upstream `arith`/`math`,
    control flow `scf`, functions `func`. Everything about where a value lives
    on the GPU (layouts, shared memory) is added later by txlgpu passes.
  }];
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

class TXL_Op<string mnemonic, list<Trait> traits = []>
    : Op<TXL_Dialect, mnemonic, traits>;

#endif
