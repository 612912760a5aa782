//===- PassDumps.cpp - The IR after every pass, one file each -------------===//
#include "txl/Pipeline/PassDumps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace txl {

namespace {

/// Numbers the passes of one stage as they finish and writes the module
/// after each. Only module-level runs count: every stage adds its passes to
/// the module, so a nested (per-function) run is part of its parent's.
class PassDumper : public mlir::PassInstrumentation {
public:
  PassDumper(std::string stage, std::string dir, bool locations)
      : stage(std::move(stage)), dir(std::move(dir)), locations(locations) {}

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
    if (!module || module->getParentOp())
      return;
    writeModuleDump(module, dir,
                    passDumpFileName(stage, ++count, pass->getArgument().str()),
                    locations);
  }

  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override {
    auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
    if (!module || module->getParentOp())
      return;
    writeModuleDump(
        module, dir,
        passDumpFileName(stage, ++count, pass->getArgument().str() + ".failed"),
        locations);
  }

private:
  std::string stage, dir;
  bool locations;
  int count = 0;
};

} // namespace

std::string passDumpPrefix(const std::string &stage, int number) {
  char index[16];
  std::snprintf(index, sizeof(index), "%02d", number);
  return stage + "-" + index + "-";
}

std::string passDumpFileName(const std::string &stage, int number,
                             const std::string &passArgument) {
  return passDumpPrefix(stage, number) +
         (passArgument.empty() ? "pass" : passArgument) + ".mlir";
}

bool writeModuleDump(mlir::ModuleOp module, const std::string &dir,
                     const std::string &name, bool locations) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(locations));
  return !os.has_error();
}

void dumpStagePasses(mlir::PassManager &pm, mlir::ModuleOp module,
                     const std::string &stage, const std::string &dir,
                     bool locations) {
  llvm::sys::fs::create_directories(dir);
  writeModuleDump(module, dir, passDumpFileName(stage, 0, "input"), locations);
  pm.addInstrumentation(std::make_unique<PassDumper>(stage, dir, locations));
}

} // namespace txl
