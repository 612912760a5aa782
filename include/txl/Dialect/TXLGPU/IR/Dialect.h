//===- Dialect.h - txlgpu dialect ------------------------------*- C++ -*-===//
#ifndef TXL_DIALECT_TXLGPU_IR_DIALECT_H
#define TXL_DIALECT_TXLGPU_IR_DIALECT_H

#include "txl/Dialect/TXL/IR/Dialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/OpDefinition.h"

#include "txl/Dialect/TXLGPU/IR/Dialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "txl/Dialect/TXLGPU/IR/Attrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "txl/Dialect/TXLGPU/IR/Types.h.inc"

#define GET_OP_CLASSES
#include "txl/Dialect/TXLGPU/IR/Ops.h.inc"

namespace mlir::txlgpu {
/// Whether `type` is a memdesc in tensor memory (#txlgpu.tensor_memory).
bool isTensorMemory(Type type);
} // namespace mlir::txlgpu

#endif
