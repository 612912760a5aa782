//===- Dialect.h - txl dialect ---------------------------------*- C++ -*-===//
#ifndef TXL_DIALECT_TXL_IR_DIALECT_H
#define TXL_DIALECT_TXL_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "txl/Dialect/TXL/IR/Dialect.h.inc"
#include "txl/Dialect/TXL/IR/OpsEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "txl/Dialect/TXL/IR/Types.h.inc"

#define GET_OP_CLASSES
#include "txl/Dialect/TXL/IR/Ops.h.inc"

namespace mlir::txl {
/// Attribute names shared by the front end and later passes.
constexpr llvm::StringLiteral kKernelAttr = "txl.kernel";
constexpr llvm::StringLiteral kDivisibilityAttr = "txl.divisibility";
constexpr llvm::StringLiteral kEqualsOneAttr = "txl.equal_to_1";

/// `elem` with the shape of `like` (scalar when `like` is a scalar).
Type getTypeWithShapeOf(Type like, Type elem);
} // namespace mlir::txl

#endif
