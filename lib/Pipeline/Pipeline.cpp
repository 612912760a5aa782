//===- Pipeline.cpp - every stage of txl, in order
//-------------------------===//
//
// This is the page to read first. A kernel goes through:
//
//   1. parse            Python source -> AST                  (Frontend)
//   2. build            AST -> txl tile IR, specialized        (IRGen)
//   3. tile passes      inline, canonicalize, cse, symbol-dce,
//                       txlgpu-slice-tensor-memory-loads             *.txlir
//   4. GPU passes       txlgpu-combine-dot-accumulate, txl-assign-layouts,
//                       txlgpu-pipeline-async-copies,
//                       txlgpu-pipeline-tma-loads,
//                       txlgpu-prefetch-loop-loads,
//                       txlgpu-pipeline-warp-group-dots,
//                       txlgpu-pipeline-tcgen05-dots,
//                       txlgpu-assign-shared-layouts,
//                       txlgpu-remove-layout-conversions,
//                       canonicalize, cse, txlgpu-check-mbarrier-protocol,
//                       txlgpu-allocate-tensor-memory,
//                       txlgpu-allocate-shared-memory
//                                                                  *.txlgir
//   5. LLVM lowering    convert-scf-to-cf, txl-convert-txlgpu-to-llvm,
//                       canonicalize, cse, reconcile-unrealized-casts
//   6. translate        LLVM dialect -> LLVM IR, libdevice, O3       *.llir
//   7. NVPTX            LLVM IR -> PTX                                 *.ptx
//   8. assemble         nvJitLink | ptxas | (driver JIT at load)     *.cubin
//
// Every pass is registered with txl-opt, so any stage can be replayed on a
// dumped .txlir/.txlgir with the pipeline strings printed on failure.
//
//===----------------------------------------------------------------------===//
#include "txl/Pipeline/Pipeline.h"
#include "txl/Pipeline/LaunchParamJson.h"
#include "txl/Pipeline/PassDumps.h"
#include "txl/Pipeline/Reproducer.h"
#include "txl/Support/Sha256.h"
#include "txl/Support/TargetFeatures.h"
#include "txl/Version.h"

#include "txl/Conversion/Passes.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Frontend/IRGen.h"
#include "txl/Frontend/Parser.h"
#include "txl/InitAll.h"
#include "txl/Target/Cubin.h"
#include "txl/Target/LLVMIR.h"
#include "txl/Target/PTX.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace txl;

namespace {

/// currentCompileStep's buffer, and the kernel it describes.
char compileStep[512];
std::string stepKernel;

void setCompileStep(const std::string &what) {
  std::string text = what.empty() ? "" : what + ", kernel " + stepKernel;
  size_t n = std::min(text.size(), sizeof(compileStep) - 1);
  std::memcpy(compileStep, text.data(), n);
  compileStep[n] = 0;
}

/// Records the pass about to run, for the crash handler.
class StepInstrumentation : public mlir::PassInstrumentation {
public:
  explicit StepInstrumentation(std::string stage) : stage(std::move(stage)) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    setCompileStep("stage '" + stage + "', pass '" + pass->getArgument().str() +
                   "'");
  }

private:
  std::string stage;
};

/// TXL_TEST_CRASH_AT=<stage> crashes on purpose when compileKernel reaches
/// that stage: how the crash handler is tested. Test-only, undocumented.
void testCrashAt(const char *stage) {
  const char *at = std::getenv("TXL_TEST_CRASH_AT");
  if (at && std::strcmp(at, stage) == 0)
    std::raise(SIGSEGV);
}

/// Marks the step for the crash handler and offers the test crash.
void enterStage(const char *stage) {
  setCompileStep(std::string("stage '") + stage + "'");
  testCrashAt(stage);
}

std::string printOp(mlir::Operation *op, bool locations) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, mlir::OpPrintingFlags().enableDebugInfo(locations));
  return text;
}

/// Collects MLIR diagnostics as text; a pass failure becomes one compiler
/// error naming the stage, never a crash. Errors a pass reports at a
/// place in the kernel's source (a misuse only visible after analysis,
/// such as a cp.async copy narrower than 4 bytes) are kept apart so they
/// read like the front end's located errors.
class DiagnosticCollector {
public:
  DiagnosticCollector(mlir::MLIRContext &ctx, std::string fileName)
      : fileName(std::move(fileName)),
        handler(&ctx, [this](mlir::Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag << "\n";
          auto at = mlir::dyn_cast<mlir::FileLineColLoc>(diag.getLocation());
          // The pass manager's own note that a reproducer was written is
          // about the compiler, not the source it points at.
          bool reproducerNote = llvm::StringRef(diag.str()).starts_with(
              "Failures have been detected while processing");
          if (at && at.getFilename() == this->fileName && !reproducerNote &&
              diag.getSeverity() == mlir::DiagnosticSeverity::Error)
            located.push_back(
                {SourceLoc{int(at.getLine()), int(at.getColumn())},
                 diag.str()});
          return mlir::success();
        }) {}
  std::string text;
  std::vector<std::pair<SourceLoc, std::string>> located;

private:
  std::string fileName;
  mlir::ScopedDiagnosticHandler handler;
};

/// "reproducer: DIR ..." for an internal error's message.
std::string reproducerNote(Reproducer &reproducer, const std::string &stage,
                           mlir::ModuleOp module = {}) {
  std::string dir = reproducer.write(stage, module);
  if (dir.empty())
    return "(no reproducer: cannot write " + reproducer.directory() + ")\n";
  return "reproducer: " + dir + " (command.sh replays it)\n";
}

bool runStage(mlir::ModuleOp module, mlir::PassManager &pm, const char *stage,
              DiagnosticCollector &diags, const SourceFile &file,
              Reproducer &reproducer, std::string &diagnostics) {
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  pm.printAsTextualPipeline(os);
  diags.located.clear();
  reproducer.attach(pm, stage);
  if (mlir::succeeded(pm.run(module)))
    return true;
  if (!diags.located.empty()) {
    // A misuse found by a pass is the user's error: no reproducer.
    reproducer.discard(stage);
    // One report per place and message: a statically unrolled loop repeats
    // the op (and its error) once per copy.
    std::set<std::string> seen;
    for (auto &[loc, message] : diags.located) {
      std::string text =
          formatDiagnostic(file, Diagnostic{Severity::Error, loc, message});
      if (seen.insert(text).second)
        diagnostics += text;
    }
    return false;
  }
  diagnostics += "internal error: stage '" + std::string(stage) +
                 "' failed; replay with: txl-opt --pass-pipeline='" + pipeline +
                 "'\n" + diags.text + reproducerNote(reproducer, stage);
  return false;
}

/// For the reproducer tests only: TXL_TEST_FORCE_INTERNAL_ERROR=fail (or
/// =crash) adds a pass to the GPU stage that fails (or writes through a
/// null pointer), the internal failures a reproducer exists for.
struct ForcedFailurePass
    : mlir::PassWrapper<ForcedFailurePass,
                        mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ForcedFailurePass)
  explicit ForcedFailurePass(bool crash) : crash(crash) {}
  llvm::StringRef getArgument() const override {
    return "txl-test-forced-failure";
  }
  void runOnOperation() override {
    if (crash)
      *static_cast<volatile int *>(nullptr) = 1;
    mlir::emitError(mlir::UnknownLoc::get(&getContext()),
                    "forced internal failure (test hook)");
    signalPassFailure();
  }
  bool crash;
};

void addForcedFailure(mlir::PassManager &pm) {
  const char *mode = std::getenv("TXL_TEST_FORCE_INTERNAL_ERROR");
  if (mode && (llvm::StringRef(mode) == "fail" ||
               llvm::StringRef(mode) == "crash"))
    pm.addPass(std::make_unique<ForcedFailurePass>(
        llvm::StringRef(mode) == "crash"));
}

void addTilePasses(mlir::PassManager &pm, const CompileOptions &) {
  pm.addPass(mlir::createInlinerPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSymbolDCEPass());
  // After canonicalization has folded reshape/permute/split into
  // extract_slice, before layouts are chosen.
  pm.addPass(mlir::txlgpu::createSliceTensorMemoryLoads());
}

void addGPUPasses(mlir::PassManager &pm, const CompileOptions &options) {
  mlir::txlgpu::AssignLayoutsOptions layouts;
  layouts.numWarps = options.numWarps;
  layouts.numWarpgroups = options.numWarpgroups;
  layouts.target = options.target;
  mlir::txlgpu::PipelineAsyncCopiesOptions asyncCopies;
  asyncCopies.numStages = options.numStages;
  pm.addPass(mlir::txlgpu::createCombineDotAccumulate());
  pm.addPass(mlir::txlgpu::createAssignLayouts(layouts));
  // Loops the cp.async pipeliner takes are left alone by the three after it.
  pm.addPass(mlir::txlgpu::createPipelineAsyncCopies(asyncCopies));
  mlir::txlgpu::PipelineTMALoadsOptions tmaLoads;
  tmaLoads.numStages = options.numStages;
  pm.addPass(mlir::txlgpu::createPipelineTMALoads(tmaLoads));
  pm.addPass(mlir::txlgpu::createPrefetchLoopLoads());
  mlir::txlgpu::PipelineWarpGroupDotsOptions warpGroupDots;
  warpGroupDots.numStages = options.numStages;
  pm.addPass(mlir::txlgpu::createPipelineWarpGroupDots(warpGroupDots));
  pm.addPass(mlir::txlgpu::createPipelineTCGen05Dots());
  pm.addPass(mlir::txlgpu::createAssignSharedLayouts());
  pm.addPass(mlir::txlgpu::createRemoveLayoutConversions());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::txlgpu::createCheckMBarrierProtocol());
  pm.addPass(mlir::txlgpu::createAllocateTensorMemory());
  pm.addPass(mlir::txlgpu::createAllocateSharedMemory());
  addForcedFailure(pm);
}

void addLLVMPasses(mlir::PassManager &pm, const CompileOptions &) {
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(mlir::txl::createConvertTXLGPUToLLVM());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}

/// The MLIR stages in order, named as --list-passes, the pass dumps and
/// @txl.jit(diff_mode=...) name them (after the artifact each one ends in;
/// "llvm" is the LLVM dialect, before translation to LLVM IR).
struct StageSpec {
  const char *name;
  void (*addPasses)(mlir::PassManager &, const CompileOptions &);
};
const StageSpec kStages[] = {{"txlir", addTilePasses},
                             {"txlgir", addGPUPasses},
                             {"llvm", addLLVMPasses}};

int scalarBytes(const std::string &type) {
  if (type == "i1" || type == "i8" || type == "u8")
    return type == "i1" ? 4 : 1; // bools travel as 32-bit ints
  if (type == "i16" || type == "u16" || type == "fp16" || type == "bf16")
    return 2;
  if (type == "i64" || type == "u64" || type == "fp64")
    return 8;
  return 4;
}

/// Launch parameters: the kernel's runtime (non-constexpr, non-None)
/// parameters in order, named as in the source.
std::vector<LaunchParam> launchParams(const Module &ast,
                                      const CompileOptions &options) {
  std::vector<LaunchParam> params;
  const FunctionDefStmt *fn = ast.findFunction(options.kernelName);
  for (size_t i = 0; i < options.signature.size(); ++i) {
    const ArgSpec &spec = options.signature[i];
    if (spec.kind == ArgSpec::Kind::Constexpr ||
        spec.kind == ArgSpec::Kind::None)
      continue;
    LaunchParam p;
    p.name = fn && i < fn->args.size() ? fn->args[i].name : "";
    if (spec.kind == ArgSpec::Kind::TensorDesc) {
      p.type = "tensordesc";
      p.sizeBytes = 128; // sizeof(CUtensorMap)
      p.elementType = spec.type;
      p.block = spec.block;
    } else {
      p.type = spec.kind == ArgSpec::Kind::Pointer ? "ptr" : spec.type;
      p.sizeBytes =
          spec.kind == ArgSpec::Kind::Pointer ? 8 : scalarBytes(spec.type);
    }
    params.push_back(p);
  }
  return params;
}

/// The TMA box and swizzle of each descriptor parameter, as
/// AssignSharedLayouts recorded them on the kernel's arguments (launch
/// parameters are the kernel's arguments, in order).
void readDescriptorLayouts(mlir::ModuleOp module, const std::string &kernel,
                           std::vector<LaunchParam> &params) {
  auto func = module.lookupSymbol<mlir::func::FuncOp>(kernel);
  if (!func)
    return;
  using mlir::txlgpu::TXLGPUDialect;
  for (unsigned i = 0; i < func.getNumArguments() && i < params.size(); ++i) {
    auto swizzle = func.getArgAttrOfType<mlir::IntegerAttr>(
        i, TXLGPUDialect::kTMASwizzleAttr);
    auto box = func.getArgAttrOfType<mlir::DenseI64ArrayAttr>(
        i, TXLGPUDialect::kTMABoxAttr);
    if (!swizzle || !box)
      continue;
    params[i].swizzleBytes = int(swizzle.getInt());
    params[i].box.assign(box.asArrayRef().begin(), box.asArrayRef().end());
  }
}

/// ptxas fails with "Insufficient registers" when one instruction needs
/// more registers than 65536 / threads (the dots check what they can; this
/// catches the rest): a located error at the kernel, with ptxas's words,
/// or "" for any other assembler failure.
std::string registerBudgetError(const std::string &log, const Module &ast,
                                const SourceFile &file,
                                const CompileOptions &options) {
  size_t at = log.find("Insufficient registers");
  if (at == std::string::npos)
    return "";
  size_t end = log.find('\n', at);
  std::string ptxas = log.substr(at, end == std::string::npos ? end : end - at);
  int threads = options.numWarps * options.numWarpgroups * 32;
  const FunctionDefStmt *fn = ast.findFunction(options.kernelName);
  return formatDiagnostic(
      file,
      Diagnostic{Severity::Error, fn ? fn->loc : SourceLoc{1, 1},
                 "kernel '" + options.kernelName +
                     "' needs more registers per thread than a CTA of " +
                     std::to_string(threads) + " threads allows (65536 / " +
                     std::to_string(threads) +
                     "); use fewer warps or warpgroups, or smaller "
                     "tiles (ptxas: " +
                     ptxas + ")"});
}

std::vector<SharedBufferPlacement> readSharedPlan(mlir::ModuleOp module) {
  std::vector<SharedBufferPlacement> plan;
  auto entries = module->getAttrOfType<mlir::ArrayAttr>(
      mlir::txlgpu::TXLGPUDialect::kSharedPlanAttr);
  if (!entries)
    return plan;
  for (mlir::Attribute entry : entries) {
    auto dict = mlir::dyn_cast<mlir::DictionaryAttr>(entry);
    if (!dict)
      continue;
    auto intOf = [&](llvm::StringRef key) {
      auto v = dict.getAs<mlir::IntegerAttr>(key);
      return v ? int(v.getInt()) : 0;
    };
    SharedBufferPlacement p;
    if (auto op = dict.getAs<mlir::StringAttr>("op"))
      p.op = op.str();
    p.line = intOf("line");
    p.offset = intOf("offset");
    p.bytes = intOf("bytes");
    if (auto whole = dict.getAs<mlir::BoolAttr>("whole_kernel"))
      p.wholeKernel = whole.getValue();
    plan.push_back(std::move(p));
  }
  return plan;
}

int moduleInt(mlir::ModuleOp module, llvm::StringRef name) {
  if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

} // namespace

const char *txl::compilerVersion() { return "txl " TXL_VERSION " (llvm 22)"; }

std::vector<PassInfo> txl::listPasses(const CompileOptions &options) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  std::vector<PassInfo> passes;
  for (const StageSpec &stage : kStages) {
    mlir::PassManager pm(&ctx);
    stage.addPasses(pm, options);
    int number = 0;
    for (mlir::Pass &pass : pm.getPasses())
      passes.push_back(PassInfo{int(passes.size()) + 1, stage.name, ++number,
                                pass.getArgument().str(),
                                pass.getDescription().str()});
  }
  return passes;
}

const char *txl::currentCompileStep() { return compileStep; }

std::string txl::remainingStagePipeline(const CompileOptions &options,
                                        const std::string &stageName,
                                        int afterPass) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  int number = 0;
  std::string passes;
  for (const StageSpec &stage : kStages) {
    mlir::PassManager pm(&ctx);
    stage.addPasses(pm, options);
    for (mlir::Pass &pass : pm.getPasses()) {
      if (++number <= afterPass || stage.name != stageName)
        continue;
      llvm::raw_string_ostream os(passes);
      os << (passes.empty() ? "" : ",");
      pass.printAsTextualPipeline(os);
    }
  }
  return passes.empty() ? "" : "builtin.module(" + passes + ")";
}

bool txl::emitLLVMIRAndPTX(mlir::ModuleOp module, const CompileOptions &options,
                           CompiledKernel &out, std::string &error) {
  llvm::LLVMContext llvmContext;
  TranslateOptions translate;
  translate.lineInfo = options.lineInfo;
  translate.libdevicePath = options.libdevicePath;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVMIR(module, llvmContext, error, translate);
  if (!llvmModule)
    return false;
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                            uint32_t(options.enableReflectFtz));
  if (!optimizeLLVMModule(*llvmModule, options.target, error) ||
      !emitPTX(*llvmModule, options.target, out.ptx, error,
               options.enableFpFusion))
    return false;
  llvm::raw_string_ostream llos(out.llir);
  llvmModule->print(llos, nullptr);
  return true;
}

bool txl::compileKernel(const std::string &source, const std::string &fileName,
                        const CompileOptions &options, CompiledKernel &out,
                        std::string &diagnostics) {
  out = CompiledKernel();
  out.name = options.kernelName;
  out.target = options.target;
  out.numWarps = options.numWarps;
  out.numWarpgroups = options.numWarpgroups;
  out.clusterDims[0] = options.numCtas; // a program is a cluster along x
  out.debugSync = options.debugSync;
  if (source.size() > kMaxSourceBytes) {
    diagnostics += fileName + ": error: the source is " +
                   std::to_string(source.size()) + " bytes, more than the " +
                   std::to_string(kMaxSourceBytes) + " txl compiles\n";
    return false;
  }
  out.sourceHash = sha256Hex(source);
  out.sourceFile = fileName;
  stepKernel = "'" + options.kernelName + "' of " + fileName;
  struct StepReset {
    ~StepReset() { setCompileStep(""); }
  } stepReset;

  // 1-2. Front end.
  enterStage("front end");
  SourceFile file(fileName, source);
  std::unique_ptr<Module> ast = parseModule(file, diagnostics);
  if (!ast)
    return false;
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  DiagnosticCollector diags(ctx, fileName);
  Reproducer reproducer(source, fileName, options, out.sourceHash);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildKernelIR(ctx, *ast, file, options, diagnostics);
  if (!module)
    return false;
  out.params = launchParams(*ast, options);
  if (auto extra = (*module)->getAttrOfType<mlir::IntegerAttr>(
          mlir::txlgpu::kNumExtraWarpsAttr))
    out.numExtraWarps = int(extra.getInt());

  auto configure = [&](mlir::PassManager &pm, const StageSpec &stage) {
    enterStage(stage.name);
    pm.addInstrumentation(std::make_unique<StepInstrumentation>(stage.name));
    stage.addPasses(pm, options);
    if (options.dumpIR)
      pm.enableIRPrinting();
    if (!options.printAfterAllDir.empty())
      dumpStagePasses(pm, *module, stage.name, options.printAfterAllDir,
                      options.dumpLocations);
  };
  // 3. Tile IR.
  mlir::PassManager tile(&ctx);
  configure(tile, kStages[0]);
  if (!runStage(*module, tile, "txlir", diags, file, reproducer, diagnostics))
    return false;
  out.txlir = printOp(*module, options.dumpLocations);
  // 4. GPU IR.
  mlir::PassManager gpu(&ctx);
  configure(gpu, kStages[1]);
  if (!runStage(*module, gpu, "txlgir", diags, file, reproducer, diagnostics))
    return false;
  out.txlgir = printOp(*module, options.dumpLocations);
  out.sharedBytes =
      moduleInt(*module, mlir::txlgpu::TXLGPUDialect::kSharedBytesAttr);
  out.sharedPlan = readSharedPlan(*module);
  readDescriptorLayouts(*module, options.kernelName, out.params);
  // Per CTA in the module; a program is a cluster of numCtas CTAs.
  out.globalScratchBytes =
      moduleInt(*module, mlir::txlgpu::TXLGPUDialect::kGlobalScratchBytesAttr) *
      options.numCtas;
  // Too much shared memory would only fail at launch, far from the cause.
  if (out.sharedBytes > ::txl::targetMaxSharedBytesPerBlock(options.target)) {
    const FunctionDefStmt *fn = ast->findFunction(options.kernelName);
    diagnostics += formatDiagnostic(
        file, Diagnostic{Severity::Error, fn ? fn->loc : SourceLoc{1, 1},
                         "kernel '" + options.kernelName + "' needs " +
                             std::to_string(out.sharedBytes) +
                             " bytes of shared memory, more than the " +
                             std::to_string(::txl::targetMaxSharedBytesPerBlock(options.target)) +
                             " a CTA can have on " + options.target +
                             " (fewer stages or smaller tiles)"});
    return false;
  }
  // 5. LLVM dialect.
  if (options.debugSync)
    (*module)->setAttr(mlir::txlgpu::TXLGPUDialect::kDebugSyncTimeoutAttr,
                       mlir::IntegerAttr::get(
                           mlir::IntegerType::get(&ctx, 64),
                           int64_t(options.debugSyncTimeoutMs) * 1000000));
  mlir::PassManager lower(&ctx);
  configure(lower, kStages[2]);
  if (!runStage(*module, lower, "llvm", diags, file, reproducer, diagnostics))
    return false;

  // 6-7. LLVM IR and PTX.
  enterStage("translate, optimize and emit PTX");
  std::string error;
  if (!emitLLVMIRAndPTX(*module, options, out, error)) {
    diagnostics += "internal error: " + error + "\n" +
                   reproducerNote(reproducer, "llvm-ir", *module);
    return false;
  }
  if (!options.ptxOverrideFile.empty()) {
    auto patched = llvm::MemoryBuffer::getFile(options.ptxOverrideFile);
    if (!patched) {
      diagnostics += options.ptxOverrideFile + ": error: cannot read the PTX "
                     "override: " + patched.getError().message() + "\n";
      return false;
    }
    out.ptx = (*patched)->getBuffer().str();
  }

  // 8. cubin (the driver JITs the PTX when no assembler is available).
  enterStage("assemble");
  if (!options.skipCubin) {
    std::string log;
    bool assembled = assembleCubin(out.ptx, options.target, out.cubin,
                                   out.cubinProducer, log);
    if (!assembled && out.cubinProducer != "driver") {
      std::string budget = registerBudgetError(log, *ast, file, options);
      // PTX from tl.inline_asm_elementwise is the user's: ptxas errors are
      // most likely in it, not in txl.
      auto userAsm = (*module)->getAttrOfType<mlir::StringAttr>("txl.inline_asm");
      if (budget.empty() && userAsm)
        budget = userAsm.str() + ": error: ptxas rejected the PTX, which "
                 "holds tl.inline_asm_elementwise code (the first call is "
                 "here):\n" + log;
      diagnostics += budget.empty()
                         ? "internal error: PTX assembly failed:\n" + log +
                               reproducerNote(reproducer, "ptx", *module)
                         : budget;
      return false;
    }
    if (assembled)
      out.ptxas = parsePtxasReport(log, options.kernelName, out.ptx);
  } else {
    out.cubinProducer = "driver";
  }
  return true;
}

static llvm::json::Array
sharedPlanJson(const std::vector<SharedBufferPlacement> &plan) {
  llvm::json::Array out;
  for (const SharedBufferPlacement &p : plan)
    out.push_back(llvm::json::Object{{"op", p.op},
                                     {"line", p.line},
                                     {"offset", p.offset},
                                     {"bytes", p.bytes},
                                     {"whole_kernel", p.wholeKernel}});
  return out;
}

std::string CompiledKernel::metadataJson() const {
  llvm::json::Array paramArray;
  for (const LaunchParam &p : params)
    paramArray.push_back(launchParamToJson(p));
  llvm::json::Object obj{
      {"name", name},
      {"target", target},
      {"num_warps", numWarps},
      {"num_warpgroups", numWarpgroups},
      {"num_extra_warps", numExtraWarps},
      {"shared_bytes", sharedBytes},
      {"shared_plan", sharedPlanJson(sharedPlan)},
      {"global_scratch_bytes", globalScratchBytes},
      {"cluster_dims",
       llvm::json::Array{clusterDims[0], clusterDims[1], clusterDims[2]}},
      {"cubin_producer", cubinProducer},
      {"debug_sync", debugSync},
      {"params", std::move(paramArray)},
      {"compiler_version", compilerVersion()},
      {"source_hash", sourceHash},
      {"source_file", sourceFile}};
  if (ptxas.known()) {
    // ptxas's report, for "why is it slow" (n_regs/n_spills as in Triton).
    llvm::json::Array warnings;
    for (const PtxasWarning &w : ptxas.warnings)
      warnings.push_back(llvm::json::Object{{"code", w.code},
                                            {"message", w.message},
                                            {"ptx_line", w.ptxLine},
                                            {"source_line", w.sourceLine}});
    obj["n_regs"] = ptxas.registers;
    obj["n_spills"] = ptxas.spillBytes();
    obj["spill_store_bytes"] = ptxas.spillStoreBytes;
    obj["spill_load_bytes"] = ptxas.spillLoadBytes;
    obj["stack_bytes"] = ptxas.stackBytes;
    obj["ptxas_warnings"] = std::move(warnings);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(obj)));
  return text;
}

std::string CompiledKernel::assemblerWarnings() const {
  std::string text;
  for (const PtxasWarning &w : ptxas.warnings) {
    text += sourceFile;
    if (w.sourceLine > 0)
      text += ":" + std::to_string(w.sourceLine);
    text += ": warning: kernel '" + name + "': ptxas" +
            (w.code.empty() ? "" : " " + w.code) + ": " + w.message + "\n";
  }
  return text;
}
