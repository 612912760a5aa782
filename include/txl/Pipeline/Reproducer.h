//===- Reproducer.h - What an internal compiler failure leaves behind -*- C++
//-*-===//
//
// When a pass fails or crashes, a verifier rejects what a pass built, or
// LLVM fails, the compile writes a directory that lets anyone replay it
// without the program that asked for the compile:
//
//   source.py              the kernel's module source
//   <stage>.reproducer.mlir the IR right before the failing pass, with the
//                          pipeline (MLIR's local crash reproducer):
//                          txl-opt --run-reproducer <stage>.reproducer.mlir
//   <stage>.mlir           the module at the failure (LLVM-side failures)
//   command.sh             the txlc command (signature and options) and the
//                          txl-opt replay
//
// The directory is $TXL_REPRO_DIR (default: <temp>/txl-repro) /
// <kernel>-<hash of source and options>; nothing is written on success.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_PIPELINE_REPRODUCER_H
#define TXL_PIPELINE_REPRODUCER_H

#include "txl/Pipeline/Pipeline.h"

#include <string>

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class PassManager;
} // namespace mlir

namespace txl {

class Reproducer {
public:
  Reproducer(const std::string &source, const std::string &fileName,
             const CompileOptions &options, const std::string &sourceHash);

  /// Makes `pm` write `<stage>.reproducer.mlir` when one of its passes
  /// fails or crashes (crashes are then caught and reported as failures).
  void attach(mlir::PassManager &pm, const std::string &stage);

  /// Writes source.py, command.sh and, if not null, the module as
  /// `<stage>.mlir`. Returns the directory, or "" when it cannot be written.
  std::string write(const std::string &stage, mlir::ModuleOp module);

  /// Removes what attach() wrote for `stage` (the failure was the user's).
  void discard(const std::string &stage);

  const std::string &directory() const { return dir; }

private:
  const std::string &source;
  const std::string &fileName;
  const CompileOptions &options;
  std::string dir;
};

} // namespace txl

#endif // TXL_PIPELINE_REPRODUCER_H
