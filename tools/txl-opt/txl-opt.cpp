//===- txl-opt.cpp - replay any txl pass on dumped IR ---------------------===//
#include "txl/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  txl::registerAllDialects(registry);
  txl::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "txl optimizer driver\n", registry));
}
