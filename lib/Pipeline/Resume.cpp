//===- Resume.cpp - finish the pipeline from dumped IR (txl-opt --to-ptx) -===//
//
// A kernel author who edits a .txlgir dump (or a --print-after-all file)
// wants to see what the edit becomes in PTX and SASS without teaching the
// front end to produce it. The dump already says what it needs: the module
// records num_warps, num_warpgroups, target and num_ctas once layouts are
// assigned, and the dump's file name (stage-NN-pass.mlir) says how far
// through the pipeline it is. What remains is run exactly as compileKernel
// would run it.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/MaxNReg.h"
#include "txl/InitAll.h"
#include "txl/Pipeline/Pipeline.h"
#include "txl/Target/Cubin.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace txl;

namespace {

using mlir::txlgpu::TXLGPUDialect;

int moduleIntOr(mlir::ModuleOp module, llvm::StringRef name, int fallback) {
  if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(name))
    return int(attr.getInt());
  return fallback;
}

/// The launch options the module recorded override the caller's.
void readRecordedOptions(mlir::ModuleOp module, CompileOptions &options) {
  options.numWarps =
      moduleIntOr(module, TXLGPUDialect::kNumWarpsAttr, options.numWarps);
  options.numWarpgroups = moduleIntOr(module, TXLGPUDialect::kNumWarpgroupsAttr,
                                      options.numWarpgroups);
  options.numCtas =
      moduleIntOr(module, TXLGPUDialect::kNumCtasAttr, options.numCtas);
  options.maxnreg =
      moduleIntOr(module, ::mlir::txlgpu::kMaxnregAttr, options.maxnreg);
  if (auto target =
          module->getAttrOfType<mlir::StringAttr>(TXLGPUDialect::kTargetAttr))
    options.target = target.str();
}

/// The kernel: the function marked txl.kernel, else the only public one.
std::string kernelName(mlir::ModuleOp module) {
  std::string name;
  module.walk([&](mlir::Operation *op) {
    auto fn = mlir::dyn_cast<mlir::FunctionOpInterface>(op);
    if (fn && (name.empty() || op->hasAttr("txl.kernel")))
      name = fn.getName().str();
  });
  return name;
}

} // namespace

bool txl::finishPipeline(const std::string &irText, const std::string &fileName,
                         int afterPass, CompileOptions options,
                         CompiledKernel &out, std::string &diagnostics) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  registerAllPasses();
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::string messages;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &diag) {
    llvm::raw_string_ostream os(messages);
    os << diag.getLocation() << ": " << diag << "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(irText, config, fileName);
  if (!module) {
    diagnostics += fileName + ": error: not a txl module:\n" + messages;
    return false;
  }
  readRecordedOptions(*module, options);
  out = CompiledKernel();
  out.name = kernelName(*module);
  out.target = options.target;
  out.numWarps = options.numWarps;
  out.numWarpgroups = options.numWarpgroups;
  out.numExtraWarps = moduleIntOr(*module, mlir::txlgpu::kNumExtraWarpsAttr, 0);
  out.clusterDims[0] = options.numCtas;
  if (auto file = (*module)->getAttrOfType<mlir::StringAttr>("txl.source_file"))
    out.sourceFile = file.str();
  for (const char *stage : {"txlir", "txlgir", "llvm"}) {
    std::string pipeline = remainingStagePipeline(options, stage, afterPass);
    if (pipeline.empty())
      continue;
    mlir::PassManager pm(&ctx);
    std::string parseErrors;
    llvm::raw_string_ostream errors(parseErrors);
    // The passes go into `pm` itself (anchored on the module): the
    // anchored text would nest a second module pass manager inside it.
    llvm::StringRef passes = llvm::StringRef(pipeline)
                                 .drop_front(strlen("builtin.module("))
                                 .drop_back();
    if (mlir::failed(mlir::parsePassPipeline(passes, pm, errors))) {
      diagnostics += "internal error: cannot rebuild stage '" +
                     std::string(stage) + "': " + parseErrors + "\n";
      return false;
    }
    if (mlir::failed(pm.run(*module))) {
      diagnostics += fileName + ": error: stage '" + stage +
                     "' failed (replay with txl-opt --pass-pipeline='" +
                     pipeline + "'):\n" + messages;
      return false;
    }
  }
  out.sharedBytes = moduleIntOr(*module, TXLGPUDialect::kSharedBytesAttr, 0);
  std::string error;
  if (!emitLLVMIRAndPTX(*module, options, out, error)) {
    diagnostics += fileName + ": error: " + error + "\n" + messages;
    return false;
  }
  if (options.skipCubin) {
    out.cubinProducer = "driver";
    return true;
  }
  std::string log;
  if (!assembleCubin(out.ptx, options.target, out.cubin, out.cubinProducer,
                     log)) {
    if (out.cubinProducer == "driver")
      return true; // no assembler here: PTX only
    diagnostics += fileName + ": error: PTX assembly failed:\n" + log;
    return false;
  }
  out.ptxas = parsePtxasReport(log, out.name, out.ptx);
  return true;
}
