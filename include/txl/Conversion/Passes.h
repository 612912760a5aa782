//===- Passes.h - txl conversion passes ------------------------*- C++ -*-===//
#ifndef TXL_CONVERSION_PASSES_H
#define TXL_CONVERSION_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::txl {
#define GEN_PASS_DECL
#include "txl/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "txl/Conversion/Passes.h.inc"
} // namespace mlir::txl

#endif
