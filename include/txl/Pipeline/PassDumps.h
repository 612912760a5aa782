//===- PassDumps.h - The IR after every pass, one file each ----*- C++ -*-===//
//
// For bisecting a miscompile pass by pass (txlc --print-after-all DIR,
// --diff-pass, and @txl.jit(diff_mode=..., diff_select=N)): every stage of
// the pipeline writes its input as STAGE-00-input.mlir and the module after
// its pass N as STAGE-NN-<pass argument>.mlir, N counted from 1 within the
// stage, as `txlc --list-passes` numbers them. The diff made by pass N is
// then the diff of files N-1 and N of its stage.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_PIPELINE_PASSDUMPS_H
#define TXL_PIPELINE_PASSDUMPS_H

#include "mlir/Pass/PassInstrumentation.h"

#include <string>

namespace mlir {
class ModuleOp;
class PassManager;
} // namespace mlir

namespace txl {

/// "STAGE-NN-": how every dump file of pass `number` of `stage` begins.
std::string passDumpPrefix(const std::string &stage, int number);

/// The file name of pass `number` of `stage` (0: the stage's input).
std::string passDumpFileName(const std::string &stage, int number,
                             const std::string &passArgument);

/// Writes `module` as `dir/name` (with source locations if `locations`);
/// false when the file cannot be written.
bool writeModuleDump(mlir::ModuleOp module, const std::string &dir,
                     const std::string &name, bool locations);

/// Makes `pm` (one stage) write its input and the IR after each of its
/// passes into `dir`. Call right before running it.
void dumpStagePasses(mlir::PassManager &pm, mlir::ModuleOp module,
                     const std::string &stage, const std::string &dir,
                     bool locations);

} // namespace txl

#endif // TXL_PIPELINE_PASSDUMPS_H
