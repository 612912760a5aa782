//===- txl-opt.cpp - replay any txl pass on dumped IR ---------------------===//
//
// mlir-opt with txl's dialects and passes; `--to-ptx` (ToPtx.cpp) instead
// finishes the whole pipeline from a dump down to PTX and a cubin.
//
//===----------------------------------------------------------------------===//
#include "ToPtx.h"
#include "txl/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  if (txl::wantsToPtx(argc, argv))
    return txl::runToPtx(argc, argv);
  mlir::DialectRegistry registry;
  txl::registerAllDialects(registry);
  txl::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "txl optimizer driver\n", registry));
}
