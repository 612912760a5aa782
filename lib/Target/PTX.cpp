//===- PTX.cpp - LLVM IR to PTX through the NVPTX back end ----------------===//
#include "txl/Target/PTX.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

namespace txl {

namespace {

void initializeNVPTXOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// Parses "sm_90a" into 90 (and the suffix into `suffix`); -1 if malformed.
int parseSmVersion(const std::string &target, std::string &suffix) {
  StringRef name(target);
  if (!name.consume_front("sm_"))
    return -1;
  unsigned version = 0;
  size_t digits = name.find_first_not_of("0123456789");
  StringRef number = name.substr(0, digits);
  suffix = name.substr(number.size()).str();
  if (number.empty() || number.getAsInteger(10, version))
    return -1;
  if (!suffix.empty() && suffix != "a" && suffix != "f")
    return -1;
  return static_cast<int>(version);
}

CodeGenOptLevel toCodeGenOptLevel(int optLevel) {
  switch (optLevel) {
  case 0:
    return CodeGenOptLevel::None;
  case 1:
    return CodeGenOptLevel::Less;
  case 2:
    return CodeGenOptLevel::Default;
  default:
    return CodeGenOptLevel::Aggressive;
  }
}

} // namespace

std::string ptxFeatureFor(const std::string &target) {
  std::string suffix;
  int sm = parseSmVersion(target, suffix);
  if (sm < 75)
    return ""; // ptxas 13 no longer targets anything older than Turing.
  // PTX ISA versions ptxas 13.0 accepts and the NVPTX back end supports.
  // sm_90a needs ISA 8.0+, sm_100a 8.6+, sm_120a 8.7+; we pick the newest
  // validated ones (wgmma/TMA/tcgen05 checked with ptxas 13.0).
  if (sm >= 100)
    return "+ptx88";
  if (sm >= 90)
    return "+ptx86";
  return "+ptx80";
}

std::unique_ptr<TargetMachine>
createNVPTXTargetMachine(const std::string &target, std::string &error,
                         int optLevel, bool fpFusion) {
  std::string feature = ptxFeatureFor(target);
  if (feature.empty()) {
    error = "unsupported GPU target '" + target +
            "' (expected sm_XX with XX >= 75, e.g. sm_80, sm_90a, sm_100a)";
    return nullptr;
  }
  initializeNVPTXOnce();
  Triple triple(kNVPTXTriple);
  std::string lookupError;
  const Target *nvptx = TargetRegistry::lookupTarget(triple, lookupError);
  if (!nvptx) {
    error = "NVPTX back end unavailable: " + lookupError;
    return nullptr;
  }
  TargetOptions options;
  // Fast: NVPTX fuses fmul + fadd into fma.rn (Triton's enable_fp_fusion);
  // Strict: not even llvm.fmuladd is fused.
  options.AllowFPOpFusion = fpFusion ? FPOpFusion::Fast : FPOpFusion::Strict;
  std::unique_ptr<TargetMachine> machine(
      nvptx->createTargetMachine(triple, target, feature, options, std::nullopt,
                                 std::nullopt, toCodeGenOptLevel(optLevel)));
  if (!machine)
    error = "could not create the NVPTX target machine for " + target;
  return machine;
}

bool emitPTX(Module &module, const std::string &target, std::string &ptx,
             std::string &error, bool fpFusion) {
  std::unique_ptr<TargetMachine> machine =
      createNVPTXTargetMachine(target, error, /*optLevel=*/3, fpFusion);
  if (!machine)
    return false;
  module.setTargetTriple(machine->getTargetTriple());
  module.setDataLayout(machine->createDataLayout());
  // A release-build LLVM crashes rather than asserts on malformed IR; catch
  // it here so bad IR becomes a message.
  raw_string_ostream verifierOut(error);
  if (verifyModule(module, &verifierOut)) {
    error = "invalid LLVM IR before PTX emission: " + error;
    return false;
  }
  SmallString<0> buffer;
  raw_svector_ostream out(buffer);
  legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, out, nullptr,
                                   CodeGenFileType::AssemblyFile)) {
    error = "the NVPTX back end cannot emit assembly for " + target;
    return false;
  }
  passes.run(module);
  ptx.assign(buffer.begin(), buffer.end());
  return true;
}

} // namespace txl
