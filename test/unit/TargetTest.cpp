//===- TargetTest.cpp - LLVM+NVVM dialects to PTX and cubin ---------------===//
#include "txl/Target/Cubin.h"
#include "txl/Target/LLVMIR.h"
#include "txl/Target/PTX.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

using namespace txl;

namespace {

const char *const kTargets[] = {"sm_80", "sm_90a", "sm_100a"};

unsigned freshSeed() {
  static std::random_device device;
  return device();
}

/// Replaces every "{KEY}" in `text` with its value.
std::string fill(std::string text,
                 const std::vector<std::pair<std::string, std::string>> &vars) {
  for (const auto &[key, value] : vars) {
    std::string marker = "{" + key + "}";
    for (size_t at = text.find(marker); at != std::string::npos;
         at = text.find(marker, at + value.size()))
      text.replace(at, marker.size(), value);
  }
  return text;
}

/// `text` with every run of spaces/tabs turned into one space, so checks do
/// not depend on how the NVPTX printer aligns operands.
std::string squeeze(const std::string &text) {
  std::string out;
  for (char c : text) {
    bool blank = c == ' ' || c == '\t';
    if (blank && !out.empty() && out.back() == ' ')
      continue;
    out += blank ? ' ' : c;
  }
  return out;
}

bool contains(const std::string &ptx, const std::string &words) {
  return squeeze(ptx).find(words) != std::string::npos;
}

/// tid.x -> gep/load on global memory -> barrier -> butterfly shuffle ->
/// store. Every op carries a Python-source location.
const char *const kReduceKernel = R"mlir(
module {
  llvm.func @{NAME}(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: {NTID}, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32 loc("kernel.py":{LINE}:5)
    %idx = llvm.sext %tid : i32 to i64 loc("kernel.py":{LINE}:5)
    %p = llvm.getelementptr %in[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32 loc("kernel.py":{LINE2}:9)
    %v = llvm.load %p : !llvm.ptr<1> -> f32 loc("kernel.py":{LINE2}:9)
    nvvm.barrier0 loc("kernel.py":{LINE3}:3)
    %mask = llvm.mlir.constant(-1 : i32) : i32
    %off = llvm.mlir.constant({OFFSET} : i32) : i32
    %clamp = llvm.mlir.constant(31 : i32) : i32
    %s = nvvm.shfl.sync bfly %mask, %v, %off, %clamp : f32 -> f32 loc("kernel.py":{LINE3}:7)
    %sum = llvm.fadd %v, %s : f32 loc("kernel.py":{LINE3}:7)
    %q = llvm.getelementptr %out[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32 loc("kernel.py":{LINE3}:7)
    llvm.store %sum, %q : f32, !llvm.ptr<1> loc("kernel.py":{LINE3}:7)
    llvm.return
  } loc("kernel.py":{DEFLINE}:1)
}
)mlir";

class TargetTest : public ::testing::Test {
protected:
  TargetTest() {
    context.loadDialect<mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &text) {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    EXPECT_TRUE(module) << "test MLIR does not parse:\n" << text;
    return module;
  }

  /// translate -> O3 -> PTX; records the first failure in `error`.
  bool compileToPTX(mlir::ModuleOp module, const std::string &target,
                    std::string &ptx, std::string &error,
                    TranslateOptions options = {}) {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateToLLVMIR(module, llvmContext, error, options);
    if (!llvmModule)
      return false;
    EXPECT_EQ(llvmModule->getTargetTriple().str(), kNVPTXTriple);
    if (!optimizeLLVMModule(*llvmModule, target, error))
      return false;
    return emitPTX(*llvmModule, target, ptx, error);
  }

  /// Both assemblers must accept `ptx` and produce an ELF cubin.
  void expectAssembles(const std::string &ptx, const std::string &target) {
    std::string log;
    EXPECT_TRUE(verifyPTXWithPtxas(ptx, target, log)) << log << "\n" << ptx;
    std::vector<char> cubin;
    EXPECT_TRUE(assembleWithPtxas(ptx, target, cubin, log)) << log;
    expectElf(cubin);
    if (!nvJitLinkAvailable())
      return;
    cubin.clear();
    EXPECT_TRUE(assembleWithNvJitLink(ptx, target, cubin, log)) << log;
    expectElf(cubin);
  }

  static void expectElf(const std::vector<char> &cubin) {
    ASSERT_GE(cubin.size(), 4u);
    EXPECT_EQ(std::string(cubin.data(), 4), "\x7f"
                                            "ELF");
  }

  mlir::MLIRContext context;
};

struct ReduceKernel {
  std::string name, text;
  int ntid, line, line2, line3, offset;
};

/// With TXL_TEST_DUMP_DIR set, keeps a cubin so a GPU machine can launch it
/// (the file name encodes what a checker needs to know).
void dumpCubin(const std::string &fileName, const std::vector<char> &cubin) {
  const char *dir = std::getenv("TXL_TEST_DUMP_DIR");
  if (!dir)
    return;
  std::ofstream out(std::string(dir) + "/" + fileName, std::ios::binary);
  out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
}

ReduceKernel randomReduceKernel(std::mt19937 &rng) {
  ReduceKernel k;
  k.name = "reduce_" + std::to_string(rng() % 100000);
  k.ntid = 32 << (rng() % 6); // 32..1024
  k.line = 10 + rng() % 500;
  k.line2 = k.line + 1 + rng() % 5;
  k.line3 = k.line2 + 1 + rng() % 5;
  k.offset = 1 << (rng() % 5);
  int offset = k.offset;
  k.text = fill(kReduceKernel, {{"NAME", k.name},
                                {"NTID", std::to_string(k.ntid)},
                                {"LINE", std::to_string(k.line)},
                                {"LINE2", std::to_string(k.line2)},
                                {"LINE3", std::to_string(k.line3)},
                                {"DEFLINE", std::to_string(k.line - 1)},
                                {"OFFSET", std::to_string(offset)}});
  return k;
}

TEST_F(TargetTest, KernelBecomesEntryWithMaxntidOnEveryTarget) {
  unsigned seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  ReduceKernel k = randomReduceKernel(rng);
  auto module = parse(k.text);
  ASSERT_TRUE(module);
  for (const char *target : kTargets) {
    SCOPED_TRACE(target);
    std::string ptx, error;
    ASSERT_TRUE(compileToPTX(*module, target, ptx, error)) << error;
    EXPECT_NE(ptx.find(".entry " + k.name), std::string::npos) << ptx;
    EXPECT_NE(ptx.find(".maxntid " + std::to_string(k.ntid) + ", 1, 1"),
              std::string::npos)
        << ptx;
    EXPECT_NE(ptx.find(std::string(".target ") + target), std::string::npos);
    EXPECT_NE(ptx.find("bar.sync"), std::string::npos) << ptx;
    EXPECT_NE(ptx.find("shfl.sync.bfly"), std::string::npos) << ptx;
    expectAssembles(ptx, target);
    std::vector<char> cubin;
    std::string producer, log;
    ASSERT_TRUE(assembleCubin(ptx, target, cubin, producer, log)) << log;
    // reduce.<target>.<kernel>.<ntid>.<offset>.<producer>.cubin
    dumpCubin("reduce." + std::string(target) + "." + k.name + "." +
                  std::to_string(k.ntid) + "." + std::to_string(k.offset) +
                  "." + producer + ".cubin",
              cubin);
    if (assembleWithPtxas(ptx, target, cubin, log))
      dumpCubin("reduce." + std::string(target) + "." + k.name + "." +
                    std::to_string(k.ntid) + "." + std::to_string(k.offset) +
                    ".ptxas.cubin",
                cubin);
  }
}

TEST_F(TargetTest, PTXVersionMatchesTarget) {
  EXPECT_EQ(ptxFeatureFor("sm_90a"), "+ptx86");
  EXPECT_EQ(ptxFeatureFor("sm_100a"), "+ptx88");
  EXPECT_EQ(ptxFeatureFor("sm_80"), "+ptx80");
  EXPECT_EQ(ptxFeatureFor("sm_"), "");
  EXPECT_EQ(ptxFeatureFor("sm_90x"), "");
  EXPECT_EQ(ptxFeatureFor("gfx90a"), "");
  std::mt19937 rng(freshSeed());
  ReduceKernel k = randomReduceKernel(rng);
  auto module = parse(k.text);
  ASSERT_TRUE(module);
  for (const char *target : kTargets) {
    std::string ptx, error;
    ASSERT_TRUE(compileToPTX(*module, target, ptx, error)) << error;
    std::string version = ptxFeatureFor(target).substr(4); // "86"
    std::string expected =
        ".version " + version.substr(0, 1) + "." + version.substr(1);
    EXPECT_NE(ptx.find(expected), std::string::npos) << target << "\n" << ptx;
  }
}

TEST_F(TargetTest, LineInfoCarriesPythonLocations) {
  unsigned seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  ReduceKernel k = randomReduceKernel(rng);
  auto module = parse(k.text);
  ASSERT_TRUE(module);
  std::string ptx, error;
  ASSERT_TRUE(compileToPTX(*module, "sm_90a", ptx, error)) << error;
  llvm::Regex file(
      R"(\.file[[:space:]]+([0-9]+)[[:space:]]+"[^"]*kernel\.py")");
  llvm::SmallVector<llvm::StringRef> match;
  ASSERT_TRUE(file.match(ptx, &match)) << ptx;
  std::string fileId = match[1].str();
  // The shuffle sits on LINE3:7 and survives O3; the load on LINE2.
  for (int line : {k.line2, k.line3}) {
    EXPECT_TRUE(
        contains(ptx, ".loc " + fileId + " " + std::to_string(line) + " "))
        << "no .loc for line " << line << "\n"
        << ptx;
  }
  // Directives only: DWARF sections would make ptxas refuse -O3 ("optimized
  // debugging not supported").
  EXPECT_EQ(ptx.find(".debug_info"), std::string::npos) << ptx;
  expectAssembles(ptx, "sm_90a");

  std::string plain;
  TranslateOptions noLines;
  noLines.lineInfo = false;
  ASSERT_TRUE(compileToPTX(*module, "sm_90a", plain, error, noLines)) << error;
  EXPECT_EQ(plain.find(".loc"), std::string::npos) << plain;
  // The source module is untouched: translation works on a clone.
  EXPECT_EQ(*module == nullptr, false);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  EXPECT_EQ(printed.find("di_subprogram"), std::string::npos);
}

/// Helpers are inlined by the front end, so their ops carry
/// callsite(helper-line at call-line) locations; the PTX must point at the
/// helper's own line (what a profiler's source view should show).
TEST_F(TargetTest, InlinedHelperLinesPointIntoTheHelper) {
  std::mt19937 rng(freshSeed());
  int callLine = 10 + rng() % 50, helperLine = 100 + rng() % 50;
  auto module = parse(fill(R"mlir(
    module {
      llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
        %tid = nvvm.read.ptx.sreg.tid.x : i32 loc("kernel.py":{CALL}:3)
        %c3 = llvm.mlir.constant(3 : i32) : i32
        %m = llvm.mul %tid, %c3 : i32 loc(callsite("kernel.py":{HELPER}:12 at "kernel.py":{CALL}:9))
        llvm.store %m, %out : i32, !llvm.ptr<1> loc(callsite(callsite("kernel.py":{HELPER2}:5 at "kernel.py":{HELPER}:12) at "kernel.py":{CALL}:9))
        llvm.return loc("kernel.py":{CALL}:9)
      } loc("kernel.py":1:1)
    })mlir",
                           {{"CALL", std::to_string(callLine)},
                            {"HELPER", std::to_string(helperLine)},
                            {"HELPER2", std::to_string(helperLine + 7)}}));
  ASSERT_TRUE(module);
  std::string ptx, error;
  ASSERT_TRUE(compileToPTX(*module, "sm_90a", ptx, error)) << error;
  EXPECT_TRUE(contains(ptx, ".loc 1 " + std::to_string(helperLine) + " 12"))
      << ptx;
  EXPECT_TRUE(contains(ptx, ".loc 1 " + std::to_string(helperLine + 7) + " 5"))
      << ptx;
  expectAssembles(ptx, "sm_90a");
}

TEST_F(TargetTest, AddLineInfoGivesEveryFunctionASubprogram) {
  std::mt19937 rng(freshSeed());
  ReduceKernel k = randomReduceKernel(rng);
  auto module = parse(k.text);
  ASSERT_TRUE(module);
  std::string error;
  ASSERT_TRUE(addLineInfo(*module, error)) << error;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  EXPECT_NE(printed.find("di_subprogram"), std::string::npos) << printed;
  EXPECT_NE(printed.find("DebugDirectivesOnly"), std::string::npos) << printed;
  EXPECT_NE(printed.find("line = " + std::to_string(k.line - 1)),
            std::string::npos)
      << printed;
  // Translating a module that already has scopes must not add a second one.
  std::string ptx;
  ASSERT_TRUE(compileToPTX(*module, "sm_80", ptx, error)) << error;
  EXPECT_TRUE(contains(ptx, ".loc 1 " + std::to_string(k.line3) + " 7")) << ptx;
}

TEST_F(TargetTest, ReqntidAndMinctasmDirectives) {
  std::mt19937 rng(freshSeed());
  int reqntid = 32 * (1 + rng() % 8);
  int minctasm = 1 + rng() % 4;
  auto module = parse(
      fill(R"mlir(
    module {
      llvm.func @fixed(%out: !llvm.ptr<1>) attributes {nvvm.kernel,
          nvvm.reqntid = array<i32: {N}>, nvvm.minctasm = {M} : i32} {
        %tid = nvvm.read.ptx.sreg.tid.x : i32
        llvm.store %tid, %out : i32, !llvm.ptr<1>
        llvm.return
      }
      llvm.func @helper(%x: i32) -> i32 {
        llvm.return %x : i32
      }
    })mlir",
           {{"N", std::to_string(reqntid)}, {"M", std::to_string(minctasm)}}));
  ASSERT_TRUE(module);
  std::string ptx, error;
  ASSERT_TRUE(compileToPTX(*module, "sm_80", ptx, error)) << error;
  EXPECT_NE(ptx.find(".entry fixed"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".reqntid " + std::to_string(reqntid)), std::string::npos)
      << ptx;
  EXPECT_NE(ptx.find(".minnctapersm " + std::to_string(minctasm)),
            std::string::npos)
      << ptx;
  // A non-kernel function is never an entry point.
  EXPECT_EQ(ptx.find(".entry helper"), std::string::npos) << ptx;
  expectAssembles(ptx, "sm_80");
}

/// mbarrier.try_wait.parity has no intrinsic: convert-nvvm-to-llvm must turn
/// it into inline PTX before translation.
TEST_F(TargetTest, MbarrierTryWaitNeedsInlinePTX) {
  auto module = parse(R"mlir(
    module {
      llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
      llvm.func @wait(%phase: i32) attributes {nvvm.kernel,
          nvvm.maxntid = array<i32: 128, 1, 1>} {
        %p = llvm.mlir.addressof @bar : !llvm.ptr<3>
        %count = llvm.mlir.constant(128 : i32) : i32
        %ticks = llvm.mlir.constant(1000000 : i32) : i32
        nvvm.mbarrier.init %p, %count : !llvm.ptr<3>, i32
        nvvm.barrier0
        nvvm.mbarrier.try_wait.parity %p, %phase, %ticks : !llvm.ptr<3>, i32, i32
        llvm.return
      }
    })mlir");
  ASSERT_TRUE(module);
  for (const char *target : {"sm_90a", "sm_100a"}) {
    std::string ptx, error;
    ASSERT_TRUE(compileToPTX(*module, target, ptx, error)) << error;
    EXPECT_NE(ptx.find("mbarrier.try_wait.parity"), std::string::npos) << ptx;
    EXPECT_NE(ptx.find("mbarrier.init"), std::string::npos) << ptx;
    expectAssembles(ptx, target);
  }
}

TEST_F(TargetTest, WgmmaFenceAndSetmaxnregOnHopper) {
  std::mt19937 rng(freshSeed());
  // 384 threads at 1 CTA/SM cap entry at 168 registers; an increase must go
  // above that (multiple of 8, at most 256) or ptxas ignores it (C7507).
  int regs = 176 + 8 * (rng() % 11);
  auto module = parse(fill(R"mlir(
    module {
      llvm.func @roles() attributes {nvvm.kernel,
          nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32} {
        nvvm.wgmma.fence.aligned
        nvvm.setmaxregister increase {REGS}
        nvvm.wgmma.commit.group.sync.aligned
        llvm.return
      }
    })mlir",
                           {{"REGS", std::to_string(regs)}}));
  ASSERT_TRUE(module);
  std::string ptx, error;
  ASSERT_TRUE(compileToPTX(*module, "sm_90a", ptx, error)) << error;
  EXPECT_NE(ptx.find("wgmma.fence.sync.aligned"), std::string::npos) << ptx;
  EXPECT_TRUE(
      contains(ptx, "setmaxnreg.inc.sync.aligned.u32 " + std::to_string(regs)))
      << ptx;
  std::string log;
  EXPECT_TRUE(verifyPTXWithPtxas(ptx, "sm_90a", log)) << log;
  // With maxntid + minctasm the register cap exists, so ptxas honours
  // setmaxnreg instead of reporting it ignored (C7504/C7508).
  EXPECT_EQ(log.find("'setmaxnreg' ignored"), std::string::npos) << log;
  expectAssembles(ptx, "sm_90a");
  std::vector<char> cubin;
  std::string producer;
  ASSERT_TRUE(assembleCubin(ptx, "sm_90a", cubin, producer, log)) << log;
  dumpCubin("roles.sm_90a.roles.384.0." + producer + ".cubin", cubin);
}

/// setmaxnreg without a register cap at entry makes ptxas report it ignored
/// (C7504 in ptxas 13.0): a message both assemblers must hand back in `log`
/// on success.
TEST_F(TargetTest, AssemblerWarningsReachTheLog) {
  auto module = parse(R"mlir(
    module {
      llvm.func @uncapped() attributes {nvvm.kernel} {
        nvvm.setmaxregister decrease 40
        llvm.return
      }
    })mlir");
  ASSERT_TRUE(module);
  std::string ptx, error;
  ASSERT_TRUE(compileToPTX(*module, "sm_90a", ptx, error)) << error;
  std::vector<char> cubin;
  std::string log;
  ASSERT_TRUE(assembleWithPtxas(ptx, "sm_90a", cubin, log)) << log;
  EXPECT_NE(log.find("'setmaxnreg' ignored"), std::string::npos) << log;
  if (nvJitLinkAvailable()) {
    log.clear();
    ASSERT_TRUE(assembleWithNvJitLink(ptx, "sm_90a", cubin, log)) << log;
    EXPECT_NE(log.find("'setmaxnreg' ignored"), std::string::npos) << log;
  }
}

TEST_F(TargetTest, InvalidPTXFailsWithAssemblerMessage) {
  std::string bad = ".version 8.6\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry broken()\n{\n  bogus.instr.u32 %r1;\n"
                    "  ret;\n}\n";
  std::string log;
  EXPECT_FALSE(verifyPTXWithPtxas(bad, "sm_90a", log));
  EXPECT_NE(log.find("error"), std::string::npos) << log;
  EXPECT_NE(log.find("bogus"), std::string::npos) << log;

  std::vector<char> cubin;
  log.clear();
  EXPECT_FALSE(assembleWithPtxas(bad, "sm_90a", cubin, log));
  EXPECT_NE(log.find("error"), std::string::npos) << log;

  if (nvJitLinkAvailable()) {
    log.clear();
    EXPECT_FALSE(assembleWithNvJitLink(bad, "sm_90a", cubin, log));
    EXPECT_FALSE(log.empty());
  }
  std::string producer;
  log.clear();
  EXPECT_FALSE(assembleCubin(bad, "sm_90a", cubin, producer, log));
  EXPECT_NE(producer, "driver");
  EXPECT_NE(log.find("error"), std::string::npos) << log;
}

TEST_F(TargetTest, AssembleCubinPrefersNvJitLink) {
  std::mt19937 rng(freshSeed());
  auto module = parse(randomReduceKernel(rng).text);
  ASSERT_TRUE(module);
  std::string ptx, error;
  ASSERT_TRUE(compileToPTX(*module, "sm_100a", ptx, error)) << error;
  std::vector<char> cubin;
  std::string producer, log;
  ASSERT_TRUE(assembleCubin(ptx, "sm_100a", cubin, producer, log)) << log;
  EXPECT_EQ(producer, nvJitLinkAvailable() ? "nvjitlink" : "ptxas");
  expectElf(cubin);
}

/// O3 must run with the NVPTX TargetMachine: NVVMReflect then folds
/// __nvvm_reflect("__CUDA_ARCH") to the SM version and "__CUDA_FTZ" to the
/// nvvm-reflect-ftz module flag (1, Triton's enable_reflect_ftz default):
/// the kernel stores arch + 1000 * ftz.
TEST_F(TargetTest, OptimizerRunsNVVMReflect) {
  auto module = parse(R"mlir(
    module {
      llvm.mlir.global internal constant @arch("__CUDA_ARCH\00") {addr_space = 0 : i32}
      llvm.mlir.global internal constant @ftz("__CUDA_FTZ\00") {addr_space = 0 : i32}
      llvm.func @__nvvm_reflect(!llvm.ptr) -> i32
      llvm.func @reflect(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
        %a = llvm.mlir.addressof @arch : !llvm.ptr
        %f = llvm.mlir.addressof @ftz : !llvm.ptr
        %arch = llvm.call @__nvvm_reflect(%a) : (!llvm.ptr) -> i32
        %ftz = llvm.call @__nvvm_reflect(%f) : (!llvm.ptr) -> i32
        %c1000 = llvm.mlir.constant(1000 : i32) : i32
        %scaled = llvm.mul %ftz, %c1000 : i32
        %v = llvm.add %arch, %scaled : i32
        llvm.store %v, %out : i32, !llvm.ptr<1>
        llvm.return
      }
    })mlir");
  ASSERT_TRUE(module);
  for (auto [target, arch] : {std::pair{"sm_80", 800}, std::pair{"sm_90a", 900},
                              std::pair{"sm_100a", 1000}}) {
    std::string ptx, error;
    ASSERT_TRUE(compileToPTX(*module, target, ptx, error)) << error;
    EXPECT_EQ(ptx.find("__nvvm_reflect"), std::string::npos) << ptx;
    EXPECT_TRUE(contains(ptx, ", " + std::to_string(arch + 1000) + ";"))
        << ptx;
    expectAssembles(ptx, target);
  }
}

TEST_F(TargetTest, InvalidModuleIsAnErrorNotACrash) {
  std::mt19937 rng(freshSeed());
  auto module = parse(randomReduceKernel(rng).text);
  ASSERT_TRUE(module);
  // Break the IR the way a buggy lowering might: drop the terminator.
  mlir::Operation *ret = nullptr;
  module->walk([&](mlir::LLVM::ReturnOp op) { ret = op; });
  ASSERT_TRUE(ret);
  ret->erase();
  llvm::LLVMContext llvmContext;
  std::string error;
  EXPECT_FALSE(translateToLLVMIR(*module, llvmContext, error));
  EXPECT_NE(error.find("terminator"), std::string::npos) << error;
  EXPECT_NE(error.find("kernel.py"), std::string::npos) << error;
}

TEST_F(TargetTest, EveryOptLevelAssembles) {
  std::mt19937 rng(freshSeed());
  ReduceKernel k = randomReduceKernel(rng);
  auto module = parse(k.text);
  ASSERT_TRUE(module);
  for (int level = 0; level <= 3; ++level) {
    SCOPED_TRACE("O" + std::to_string(level));
    llvm::LLVMContext llvmContext;
    std::string error, ptx;
    auto llvmModule = translateToLLVMIR(*module, llvmContext, error);
    ASSERT_TRUE(llvmModule) << error;
    ASSERT_TRUE(optimizeLLVMModule(*llvmModule, "sm_90a", error, level))
        << error;
    ASSERT_TRUE(emitPTX(*llvmModule, "sm_90a", ptx, error)) << error;
    EXPECT_NE(ptx.find(".entry " + k.name), std::string::npos);
    expectAssembles(ptx, "sm_90a");
  }
}

TEST_F(TargetTest, LibdeviceCallsAreLinkedOrNamedInTheError) {
  auto module = parse(R"mlir(
    module {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @k(%x: f32, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
        %y = llvm.call @__nv_expf(%x) : (f32) -> f32
        llvm.store %y, %out : f32, !llvm.ptr<1>
        llvm.return
      }
    })mlir");
  ASSERT_TRUE(module);
  llvm::LLVMContext llvmContext;
  std::string error;
  const char *cudaHome = std::getenv("CUDA_HOME");
  bool haveLibdevice =
      cudaHome ||
      llvm::sys::fs::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  auto llvmModule = translateToLLVMIR(*module, llvmContext, error);
  if (!haveLibdevice) {
    // Without libdevice the error names the function it was needed for.
    EXPECT_FALSE(llvmModule);
    EXPECT_NE(error.find("__nv_expf"), std::string::npos) << error;
    return;
  }
  ASSERT_TRUE(llvmModule) << error;
  // Linked: the function has a body, internal, and PTX has no call to it.
  llvm::Function *fn = llvmModule->getFunction("__nv_expf");
  ASSERT_TRUE(fn);
  EXPECT_FALSE(fn->isDeclaration());
  ASSERT_TRUE(optimizeLLVMModule(*llvmModule, "sm_90a", error)) << error;
  std::string ptx;
  ASSERT_TRUE(emitPTX(*llvmModule, "sm_90a", ptx, error)) << error;
  EXPECT_EQ(ptx.find("__nv_expf"), std::string::npos) << ptx;
  expectAssembles(ptx, "sm_90a");
}

TEST_F(TargetTest, UnknownTargetIsAnErrorNotACrash) {
  std::mt19937 rng(freshSeed());
  auto module = parse(randomReduceKernel(rng).text);
  ASSERT_TRUE(module);
  for (const char *target : {"sm_9", "gfx90a", "", "sm_90z"}) {
    llvm::LLVMContext llvmContext;
    std::string error;
    auto llvmModule = translateToLLVMIR(*module, llvmContext, error);
    ASSERT_TRUE(llvmModule) << error;
    EXPECT_FALSE(optimizeLLVMModule(*llvmModule, target, error));
    EXPECT_NE(error.find("unsupported GPU target"), std::string::npos);
    std::string ptx;
    error.clear();
    EXPECT_FALSE(emitPTX(*llvmModule, target, ptx, error));
    EXPECT_FALSE(error.empty());
  }
}

} // namespace
