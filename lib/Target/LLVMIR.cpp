//===- LLVMIR.cpp - LLVM+NVVM dialects to optimized LLVM IR ---------------===//
#include "txl/Target/LLVMIR.h"
#include "txl/Target/PTX.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdlib>
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace txl {

namespace {

/// Collects every diagnostic emitted on the context while alive, as
/// "loc: error: message" lines, so callers get text instead of stderr noise.
class DiagnosticCollector {
public:
  DiagnosticCollector(mlir::MLIRContext *context, std::string &sink)
      : handler(context, [&sink](mlir::Diagnostic &diag) {
          llvm::raw_string_ostream os(sink);
          if (!sink.empty())
            os << "\n";
          os << diag.getLocation() << ": " << severityName(diag) << ": "
             << diag;
          for (mlir::Diagnostic &note : diag.getNotes())
            os << "\n" << note.getLocation() << ": note: " << note;
          return mlir::success();
        }) {}

private:
  static const char *severityName(mlir::Diagnostic &diag) {
    switch (diag.getSeverity()) {
    case mlir::DiagnosticSeverity::Error:
      return "error";
    case mlir::DiagnosticSeverity::Warning:
      return "warning";
    case mlir::DiagnosticSeverity::Note:
      return "note";
    case mlir::DiagnosticSeverity::Remark:
      return "remark";
    }
    return "error";
  }
  mlir::ScopedDiagnosticHandler handler;
};

bool hasTranslation(mlir::MLIRContext &context, llvm::StringRef dialectName) {
  mlir::Dialect *dialect = context.getLoadedDialect(dialectName);
  return !dialect ||
         dialect
             ->getRegisteredInterface<mlir::LLVMTranslationDialectInterface>();
}

void registerTranslations(mlir::MLIRContext &context) {
  // Appending to the registry mutates the context; skip it when the caller
  // (e.g. txl::registerAllDialects) already did, so concurrent compiles on a
  // shared context do not race here.
  if (hasTranslation(context, "builtin") && hasTranslation(context, "llvm") &&
      hasTranslation(context, "nvvm"))
    return;
  mlir::registerBuiltinDialectTranslation(context);
  mlir::registerLLVMDialectTranslation(context);
  mlir::registerNVVMDialectTranslation(context);
}

/// DebugDirectivesOnly, not LineTablesOnly: NVPTX then prints .file/.loc
/// without .debug_info sections, which ptxas would reject as "optimized
/// debugging" (this is what clang's -gline-directives-only does for CUDA).
std::unique_ptr<mlir::Pass> createLineInfoPass() {
  mlir::LLVM::DIScopeForLLVMFuncOpPassOptions options;
  options.emissionKind = mlir::LLVM::DIEmissionKind::DebugDirectivesOnly;
  return mlir::LLVM::createDIScopeForLLVMFuncOpPass(options);
}

/// NVVM ops without an LLVM intrinsic become inline PTX here; the casts the
/// conversion leaves behind must fold away before translation.
bool lowerNVVMToInlinePTX(mlir::ModuleOp module, bool lineInfo,
                          std::string &error) {
  mlir::PassManager passes(module.getContext());
  passes.addPass(mlir::createConvertNVVMToLLVMPass());
  passes.addPass(mlir::createReconcileUnrealizedCastsPass());
  if (lineInfo)
    passes.addPass(createLineInfoPass());
  if (mlir::failed(passes.run(module))) {
    if (error.empty())
      error = "lowering NVVM to LLVM failed";
    return false;
  }
  return true;
}

/// Where libdevice lives: the caller's (extern_libs), else $TXL_LIBDEVICE,
/// else under $CUDA_HOME or the default CUDA install.
std::string findLibdevice(const std::string &requested) {
  if (!requested.empty())
    return requested; // used as given: a wrong path is an error, not a
                      // silent fallback to another libdevice
  std::vector<std::string> candidates;
  if (const char *env = std::getenv("TXL_LIBDEVICE"))
    candidates.push_back(env);
  if (const char *home = std::getenv("CUDA_HOME"))
    candidates.push_back(std::string(home) + "/nvvm/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  for (const std::string &path : candidates)
    if (llvm::sys::fs::exists(path))
      return path;
  return "";
}

/// Math the lowering could not do with NVVM intrinsics calls libdevice
/// (`__nv_*`): link just the functions used and make them internal so the
/// optimizer inlines them and drops the rest.
bool linkLibdevice(llvm::Module &module, const std::string &requested,
                   std::string &error) {
  std::vector<std::string> needed;
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      needed.push_back(function.getName().str());
  if (needed.empty())
    return true;
  std::string path = findLibdevice(requested);
  if (path.empty()) {
    error = "'" + needed.front() +
            "' needs libdevice.10.bc, which was not found (set TXL_LIBDEVICE "
            "or CUDA_HOME)";
    return false;
  }
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> libdevice =
      llvm::parseIRFile(path, diag, module.getContext());
  if (!libdevice) {
    error = "cannot read libdevice '" + path + "': " + diag.getMessage().str();
    return false;
  }
  libdevice->setTargetTriple(module.getTargetTriple());
  libdevice->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(libdevice),
                                llvm::Linker::Flags::LinkOnlyNeeded)) {
    error = "linking libdevice failed";
    return false;
  }
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getCallingConv() != llvm::CallingConv::PTX_Kernel &&
        function.getName().starts_with("__nv_"))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

bool verifyLLVMModule(const llvm::Module &module, const char *when,
                      std::string &error) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (!llvm::verifyModule(module, &os))
    return true;
  error = std::string("invalid LLVM IR ") + when + ": " + message;
  return false;
}

llvm::OptimizationLevel toOptimizationLevel(int optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::OptimizationLevel::O0;
  case 1:
    return llvm::OptimizationLevel::O1;
  case 2:
    return llvm::OptimizationLevel::O2;
  default:
    return llvm::OptimizationLevel::O3;
  }
}

} // namespace

bool addLineInfo(mlir::ModuleOp module, std::string &error) {
  DiagnosticCollector collector(module.getContext(), error);
  mlir::PassManager passes(module.getContext());
  passes.addPass(createLineInfoPass());
  return mlir::succeeded(passes.run(module));
}

std::unique_ptr<llvm::Module>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                  std::string &error, const TranslateOptions &options) {
  mlir::MLIRContext *context = module.getContext();
  DiagnosticCollector collector(context, error);
  // Verify first: a release-build MLIR crashes on invalid IR downstream.
  if (mlir::failed(mlir::verify(module)))
    return nullptr;
  mlir::OwningOpRef<mlir::ModuleOp> clone(module.clone());
  if (!lowerNVVMToInlinePTX(*clone, options.lineInfo, error))
    return nullptr;
  registerTranslations(*context);
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(
      *clone, llvmContext, "txl", /*disableVerification=*/true);
  if (!llvmModule) {
    if (error.empty())
      error = "translation to LLVM IR failed";
    return nullptr;
  }
  if (!verifyLLVMModule(*llvmModule, "after translation", error) ||
      !linkLibdevice(*llvmModule, options.libdevicePath, error))
    return nullptr;
  // The data layout does not depend on the SM version.
  std::unique_ptr<llvm::TargetMachine> machine =
      createNVPTXTargetMachine("sm_80", error);
  if (!machine)
    return nullptr;
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  return llvmModule;
}

bool optimizeLLVMModule(llvm::Module &module, const std::string &smTarget,
                        std::string &error, int optLevel) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createNVPTXTargetMachine(smTarget, error, optLevel);
  if (!machine)
    return false;
  module.setTargetTriple(machine->getTargetTriple());
  module.setDataLayout(machine->createDataLayout());
  // NVVMReflect answers __nvvm_reflect("__CUDA_FTZ") from this flag: 1,
  // Triton's default (enable_reflect_ftz), so that libdevice's fp32
  // functions take their flush-to-zero forms (`__nv_exp2f` is then one
  // ex2.approx.ftz; without FTZ ptxas wraps ex2 in a subnormal range check
  // and two multiplies). Only libdevice reads it: libdevice.* and the tl
  // functions lowered to libdevice (exp2, sin, cos, erf, tanh, fp64 math)
  // flush fp32 subnormals, as in Triton; tl.exp, tl.log2 and the other
  // ex2/lg2-based ones keep them (Triton's tl.exp is ex2.approx too).
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                         static_cast<uint32_t>(1));
  if (!verifyLLVMModule(module, "before optimization", error))
    return false;

  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(moduleAM);
  builder.registerCGSCCAnalyses(cgsccAM);
  builder.registerFunctionAnalyses(functionAM);
  builder.registerLoopAnalyses(loopAM);
  builder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);

  llvm::OptimizationLevel level = toOptimizationLevel(optLevel);
  llvm::ModulePassManager passes =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, moduleAM);
  return verifyLLVMModule(module, "after optimization", error);
}

} // namespace txl
