//===- IRGen.h - AST to txl dialect (tile IR) ------------------*- C++ -*-===//
//
// The builder runs the kernel's Python at compile time: `tl.constexpr`
// values, module constants and the specialization fold; `if` on a constant is
// static; helper `@jit` functions are inlined; only runtime values become IR
// (`txl`, `arith`, `math`, `scf` ops on builtin tensors, no layouts). Type
// promotion and broadcasting follow Triton 3.6.
//
// The result is one `func.func` (attribute `txl.kernel`) whose arguments are
// the runtime parameters in order; constexpr and None parameters are gone.
// Every op carries the FileLineColLoc of the source expression it came from.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_FRONTEND_IRGEN_H
#define TXL_FRONTEND_IRGEN_H

#include "txl/Frontend/AST.h"
#include "txl/Frontend/Diagnostics.h"
#include "txl/Pipeline/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace txl {

/// Builds the txl-dialect module holding the kernel `options.kernelName`
/// specialized for `options.signature` (one ArgSpec per parameter) with
/// `options.globals` visible as module-level names. Loads the dialects it
/// needs into `ctx`. On a user error returns null and appends
/// "file:line:col: error: ..." (source line, caret, notes) to `diagnostics`;
/// never aborts on user input. A module that fails verification is reported
/// as "internal error: ...".
mlir::OwningOpRef<mlir::ModuleOp> buildKernelIR(mlir::MLIRContext &ctx,
                                                const Module &ast,
                                                const SourceFile &file,
                                                const CompileOptions &options,
                                                std::string &diagnostics);

/// Every builtin function kernels may call, one tab-separated line each:
/// name, aliases, support, minimum SM, parameters, doc, note (the registry
/// in lib/Frontend/IRGen/Registry.cpp; `txlc --list-builtins`).
std::string listBuiltins();

} // namespace txl

#endif // TXL_FRONTEND_IRGEN_H
