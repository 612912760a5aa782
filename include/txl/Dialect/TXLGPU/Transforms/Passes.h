//===- Passes.h - txlgpu passes --------------------------------*- C++ -*-===//
#ifndef TXL_DIALECT_TXLGPU_TRANSFORMS_PASSES_H
#define TXL_DIALECT_TXLGPU_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"

namespace mlir::txlgpu {
#define GEN_PASS_DECL
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#endif
