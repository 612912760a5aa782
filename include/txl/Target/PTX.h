//===- PTX.h - LLVM IR to PTX through the NVPTX back end -------*- C++ -*-===//
#ifndef TXL_TARGET_PTX_H
#define TXL_TARGET_PTX_H

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace txl {

/// The NVPTX target triple every txl module uses.
inline constexpr const char *kNVPTXTriple = "nvptx64-nvidia-cuda";

/// The PTX ISA feature ("+ptx86", ...) txl emits for `target`, or "" when
/// `target` is not an sm_XX[a|f] name we know.
std::string ptxFeatureFor(const std::string &target);

/// Creates the NVPTX TargetMachine for `target` ("sm_80", "sm_90a",
/// "sm_100a", ...) with the PTX version from ptxFeatureFor. Initializes the
/// NVPTX back end on first use (thread safe). Null with `error` on failure.
std::unique_ptr<llvm::TargetMachine>
createNVPTXTargetMachine(const std::string &target, std::string &error,
                         int optLevel = 3, bool fpFusion = false);

/// Emits PTX for `module` (triple/data layout are set if missing). The
/// module is consumed by codegen and should not be reused. If the module
/// carries debug info (DebugDirectivesOnly) the PTX has .file/.loc
/// directives and no DWARF sections. With `fpFusion` the back end contracts
/// a multiply and a dependent add into one fma (fma.rn); without, it keeps
/// them separately rounded.
bool emitPTX(llvm::Module &module, const std::string &target, std::string &ptx,
             std::string &error, bool fpFusion = false);

} // namespace txl

#endif // TXL_TARGET_PTX_H
