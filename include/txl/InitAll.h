//===- InitAll.h - register every dialect and pass txl uses ----*- C++ -*-===//
#ifndef TXL_INITALL_H
#define TXL_INITALL_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace txl {
/// Our dialects plus every upstream dialect the pipeline produces, with the
/// LLVM translation interfaces.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Our passes plus the upstream ones the pipeline uses, so txl-opt can replay
/// any stage.
void registerAllPasses();
} // namespace txl

#endif
