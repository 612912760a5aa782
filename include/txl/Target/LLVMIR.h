//===- LLVMIR.h - LLVM+NVVM dialects to optimized LLVM IR ------*- C++ -*-===//
//
// The first half of the back end: an MLIR module in the LLVM and NVVM
// dialects becomes an llvm::Module for nvptx64-nvidia-cuda, then runs the
// new-pass-manager O3 pipeline with the NVPTX TargetMachine.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_TARGET_LLVMIR_H
#define TXL_TARGET_LLVMIR_H

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace txl {

struct TranslateOptions {
  /// Attach DICompileUnit/DISubprogram (DebugDirectivesOnly) to each llvm.func
  /// from its FileLineColLoc, so the PTX carries .file/.loc directives.
  bool lineInfo = true;
  /// The libdevice to link (Triton's `extern_libs={"libdevice": path}`);
  /// "" finds one ($TXL_LIBDEVICE, $CUDA_HOME, /usr/local/cuda).
  std::string libdevicePath;
};

/// Attaches debug-directives-only scopes to every llvm.func in `module`
/// that has none (upstream ensure-debug-info-scope-on-llvm-func). Functions
/// keep their FileLineColLoc file names. Returns false with `error` set on
/// failure.
bool addLineInfo(mlir::ModuleOp module, std::string &error);

/// Translates `module` (LLVM + NVVM dialects; kernels are llvm.func with the
/// `nvvm.kernel` attribute) to LLVM IR. Works on a clone: runs
/// convert-nvvm-to-llvm (NVVM ops that become inline PTX) and
/// reconcile-unrealized-casts, optionally line info, then
/// mlir::translateModuleToLLVMIR. Sets the NVPTX triple and data layout.
/// Links the libdevice functions (`__nv_*`) the module calls. Returns null
/// with `error` holding the diagnostics on failure.
std::unique_ptr<llvm::Module>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                  std::string &error, const TranslateOptions &options = {});

/// Runs the default per-module pipeline at `optLevel` (0..3) with the NVPTX
/// TargetMachine for `smTarget` ("sm_80", "sm_90a", "sm_100a", ...), so the
/// NVPTX passes (NVVMReflect, ...) take part. Sets the module flag
/// nvvm-reflect-ftz=1 (Triton's default) unless present. Verifies the module first. Returns
/// false with `error` set on failure.
bool optimizeLLVMModule(llvm::Module &module, const std::string &smTarget,
                        std::string &error, int optLevel = 3);

} // namespace txl

#endif // TXL_TARGET_LLVMIR_H
