//===- AxisInfoTestUtil.h - parse kernels for the axis analysis tests -----===//
#ifndef TXL_TEST_UNIT_AXISINFOTESTUTIL_H
#define TXL_TEST_UNIT_AXISINFOTESTUTIL_H

#include "txl/Analysis/AxisInfo.h"
#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include <memory>
#include <string>

namespace axisinfo_test {

/// A parsed module with the analysis run over it.
struct Analyzed {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<txl::AxisInfoAnalysis> analysis;

  explicit Analyzed(const std::string &source) {
    context.loadDialect<mlir::txl::TXLDialect, mlir::arith::ArithDialect,
                        mlir::scf::SCFDialect, mlir::func::FuncDialect>();
    context.allowUnregisteredDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    if (module)
      analysis = std::make_unique<txl::AxisInfoAnalysis>(*module);
  }
  bool ok() const { return bool(module); }

  /// The first result of the op carrying `tag = "<name>"`.
  mlir::Value tagged(llvm::StringRef name) {
    mlir::Value found;
    module->walk([&](mlir::Operation *op) {
      auto tag = op->getAttrOfType<mlir::StringAttr>("tag");
      if (tag && tag.getValue() == name && op->getNumResults() > 0)
        found = op->getResult(0);
    });
    return found;
  }
  const txl::AxisInfo *info(llvm::StringRef name) {
    mlir::Value value = tagged(name);
    return value ? analysis->getAxisInfo(value) : nullptr;
  }
};

} // namespace axisinfo_test

#endif
