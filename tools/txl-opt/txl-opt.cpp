//===- txl-opt.cpp - replay any txl pass on dumped IR ---------------------===//
//
// mlir-opt with txl's dialects and passes. `--to-ptx` (finish the whole
// pipeline from a dump) is txlc's (tools/txlc/ToPtx.cpp): txl-opt runs the
// txlc next to it, so the compiler's back end is not linked in twice.
//
//===----------------------------------------------------------------------===//
#include "txl/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <iostream>

namespace {

bool wantsToPtx(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--to-ptx")
      return true;
  return false;
}

/// Runs `txlc --to-ptx ...` with the same arguments; txlc is the binary
/// next to this one.
int delegateToTxlc(int argc, char **argv) {
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(argv[0], &anchor);
  llvm::SmallString<256> txlc(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(txlc, "txlc");
  if (!llvm::sys::fs::can_execute(txlc)) {
    std::cerr << "txl-opt: error: --to-ptx needs txlc next to txl-opt ("
              << txlc.str().str() << ")\n";
    return 1;
  }
  std::vector<llvm::StringRef> args = {txlc};
  for (int i = 1; i < argc; ++i)
    args.push_back(argv[i]);
  std::string error;
  int status =
      llvm::sys::ExecuteAndWait(txlc, args, std::nullopt, {}, 0, 0, &error);
  if (status < 0)
    std::cerr << "txl-opt: error: cannot run txlc: " << error << "\n";
  return status < 0 ? 1 : status;
}

} // namespace

int main(int argc, char **argv) {
  if (wantsToPtx(argc, argv))
    return delegateToTxlc(argc, argv);
  mlir::DialectRegistry registry;
  txl::registerAllDialects(registry);
  txl::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "txl optimizer driver\n", registry));
}
