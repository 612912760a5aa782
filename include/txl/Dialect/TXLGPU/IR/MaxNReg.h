//===- MaxNReg.h - the launch option maxnreg in the IR ----------*- C++ -*-===//
#ifndef TXL_DIALECT_TXLGPU_IR_MAXNREG_H
#define TXL_DIALECT_TXLGPU_IR_MAXNREG_H

#include "llvm/ADT/StringRef.h"

namespace mlir::txlgpu {

/// Module attribute (i32), set only when the launch option maxnreg is
/// nonzero: the registers per thread the kernel may use, which the LLVM
/// lowering puts on the entry (PTX .maxnreg).
constexpr llvm::StringLiteral kMaxnregAttr = "txlgpu.maxnreg";

} // namespace mlir::txlgpu

#endif
