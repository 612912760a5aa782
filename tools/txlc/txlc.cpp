//===- txlc.cpp - ahead-of-time kernel compiler ----------------------------===//
//
// Compiles one kernel of a Python file for a named target with no GPU and
// writes every stage's artifact: NAME.txlir .txlgir .llir .ptx .cubin .json.
//
//===----------------------------------------------------------------------===//
#include "Aot.h"
#include "Inspect.h"
#include "ToPtx.h"
#include "txl/Pipeline/PassDumps.h"
#include "txl/Frontend/IRGen.h"
#include "txl/Pipeline/Pipeline.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/stat.h>

namespace {

const char *kUsage =
    R"(usage: txlc FILE --kernel-name NAME --signature SIG [options]

Compiles the @jit kernel NAME found in the Python file FILE, specialized by
SIG, and writes NAME.txlir, NAME.txlgir, NAME.llir, NAME.ptx, NAME.cubin and
NAME.json into the output directory. Needs no GPU.

A kernel that calls tl.make_tensor_descriptor builds its TMA descriptors in
global scratch memory: NAME.json then has "global_scratch_bytes" (per
program) and the kernel takes one hidden pointer parameter after the ones
in "params": a device buffer of at least (number of programs) x that many
bytes, 128-byte aligned, which the caller allocates (libtxl does).

options:
  --kernel-name NAME     kernel to compile (required)
  --signature SIG        one entry per parameter, in order (required):
                           *fp16 *bf16 *fp32 *i32 ...   pointer (":16" = 16-byte aligned)
                           i32 i64 fp32 ...             scalar (":16" divisible by 16, ":1" equal to 1)
                           1024 True tl.float16 ...     constexpr value
                           none                         None
                           tensordesc<fp16[128, 64]>    host TMA descriptor, its block
  --num-warps N          warps per warpgroup (default 4)
  --num-warpgroups G     warpgroups per CTA (default 1)
  --num-stages S         software pipelining depth (default 3)
  --num-ctas C           CTAs per cluster; a program is one cluster (default 1)
  --maxnreg R            at most R registers per thread (PTX .maxnreg)
  --no-fp-fusion         keep a*b + c as a separately rounded multiply and
                         add (Triton's enable_fp_fusion=False)
  --no-reflect-ftz       libdevice keeps fp32 subnormals (Triton's
                         enable_reflect_ftz=False)
  --target T             sm_80 | sm_90a | sm_100a | sm_120a (default sm_90a)
  --out-dir DIR          where to write artifacts (default .)
  -I DIR                 also look for imported Python modules (jit helpers,
                         constants) under DIR, after FILE's own directory;
                         may be repeated
  --no-cubin             stop at PTX
  --debug-sync           bound every mbarrier wait; a timed-out wait records
                         where it waited and traps (also TXL_DEBUG_SYNC=1)
  --dump-ir              print the IR after every pass to stderr
  --list-passes          print every pass of every stage, numbered both
                         overall and within its stage (as --diff-pass and
                         @txl.jit(diff_select=N) count them), and exit
  --print-after-all DIR  write each stage's input and the IR after each
                         pass into DIR, one numbered file per pass
  --diff-pass N          print the unified diff pass N made (N overall, or
                         STAGE:N with STAGE txlir, txlgir or llvm)
  --aot                  also write NAME.h and NAME.c: the cubin and
                         metadata embedded, and a typed C launcher
                         (int NAME(void *stream, gx, gy, gz, args...))
                         that needs only libtxlrt, the runtime without the
                         compiler (see examples/aot)
  --dump-locations       print source locations in .txlir/.txlgir and the
                         pass dumps
  --ptx-override FILE    assemble FILE (a hand-edited NAME.ptx) instead of
                         the PTX the compiler makes, for patching experiments
  --sass                 also write NAME.sass: the cubin through nvdisasm
                         ($TXL_NVDISASM, $CUDA_HOME/bin or PATH), each
                         instruction under its source line
  --html FILE            write a one-page viewer: the source with, per line,
                         the tile IR, GPU IR, LLVM IR, PTX and SASS it became,
                         SASS counts by class, ptxas's report and the shared-
                         memory plan (implies --dump-locations)
  --version              print the version and exit

txlc --to-ptx DUMP [-o OUT.ptx] [--cubin OUT.cubin] finishes the pipeline
from IR dumped anywhere in it (also as txl-opt --to-ptx; --to-ptx --help).
  --list-builtins        print every builtin function the compiler knows, one
                         tab-separated line each (name, aliases, support,
                         minimum SM, parameters, doc, note), and exit
  -h, --help             this text

examples:
  txlc examples/vector_add.py --kernel-name add_kernel \
       --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --out-dir out
  txlc examples/softmax.py --kernel-name softmax_kernel --num-warps 8 \
       --signature "*fp16:16, *fp16:16, i32, i32, i32, 1024" --target sm_80
)";

/// The command line, for the crash handler's reproducer hint.
std::string commandLine;

/// Runs on a fatal signal (after LLVM's stack trace): what was being
/// compiled, and how to reproduce it, instead of a bare "Segmentation
/// fault".
void reportCrash(void *) {
  const char *step = txl::currentCompileStep();
  std::fprintf(stderr,
               "txlc: internal compiler error: crashed during %s\n"
               "txlc: reproduce with: %s\n"
               "txlc: please report it with the source file and this "
               "output\n",
               *step ? step : "startup", commandLine.c_str());
}

std::string shellQuote(const std::string &arg) {
  if (!arg.empty() &&
      arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                            "VWXYZ0123456789_-+=/.,:") == std::string::npos)
    return arg;
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

int usageError(const std::string &message) {
  std::cerr << "txlc: error: " << message << "\n"
            << "run 'txlc --help' for usage\n";
  return 2;
}

/// Reads the source file: a regular file of at most kMaxSourceBytes (a
/// directory, FIFO or device such as /dev/zero is refused, not read until
/// killed). Returns "" or what is wrong.
std::string readSource(const std::string &path, std::string &text) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return std::strerror(errno);
  if (S_ISDIR(st.st_mode))
    return "is a directory, not a source file";
  if (!S_ISREG(st.st_mode))
    return "is not a regular file (a FIFO, socket or device)";
  if (uint64_t(st.st_size) > txl::kMaxSourceBytes)
    return "is " + std::to_string(st.st_size) + " bytes, more than the " +
           std::to_string(txl::kMaxSourceBytes) + " txlc compiles";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "cannot be opened";
  // Read at most one byte past the cap, in case the file grew since stat.
  text.resize(txl::kMaxSourceBytes + 1);
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  if (text.size() > txl::kMaxSourceBytes)
    return "is more than " + std::to_string(txl::kMaxSourceBytes) +
           " bytes, more than txlc compiles";
  return "";
}

bool writeFile(const std::string &path, const char *data, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(data, size);
  return bool(out);
}

bool parseInt(const char *text, int &value) {
  char *end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < 1 || v > 1024)
    return false;
  value = int(v);
  return true;
}

void printPasses(const std::vector<txl::PassInfo> &passes) {
  for (const txl::PassInfo &p : passes) {
    std::string where = p.stage + ":" + std::to_string(p.stageNumber);
    std::printf("%3d  %-10s %-36s %s\n", p.number, where.c_str(),
                p.argument.c_str(), p.description.c_str());
  }
}

/// The pass named by "N" (overall) or "STAGE:N".
const txl::PassInfo *findPass(const std::vector<txl::PassInfo> &passes,
                              const std::string &which) {
  size_t colon = which.find(':');
  std::string stage = colon == std::string::npos ? "" : which.substr(0, colon);
  int number = 0;
  if (!parseInt(which.c_str() + (colon == std::string::npos ? 0 : colon + 1),
                number))
    return nullptr;
  for (const txl::PassInfo &p : passes)
    if (stage.empty() ? p.number == number
                      : p.stage == stage && p.stageNumber == number)
      return &p;
  return nullptr;
}

std::string scratchDirectory() {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("txlc-passes", dir))
    return "txlc-passes";
  return dir.str().str();
}

/// Prints `diff -u` of the IR before and after `pass` (files written by
/// the compile into `dir`). A pass that failed has a ".failed" dump.
bool printPassDiff(const txl::PassInfo &pass, const std::string &dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    files.push_back(it->path().filename().string());
  auto find = [&](int number) -> std::string {
    std::string prefix = txl::passDumpPrefix(pass.stage, number);
    for (const std::string &f : files)
      if (f.rfind(prefix, 0) == 0)
        return dir + "/" + f;
    return "";
  };
  std::string before = find(pass.stageNumber - 1), after = find(pass.stageNumber);
  if (before.empty() || after.empty()) {
    std::cerr << "txlc: error: pass " << pass.stage << ":" << pass.stageNumber
              << " (" << pass.argument << ") did not run\n";
    return false;
  }
  std::cout << "pass " << pass.number << " = " << pass.stage << ":"
            << pass.stageNumber << " " << pass.argument << std::endl;
  auto diff = llvm::sys::findProgramByName("diff");
  if (!diff) {
    std::cout << "before: " << before << "\nafter:  " << after << "\n";
    return true;
  }
  llvm::StringRef args[] = {*diff, "-u", before, after};
  int status = llvm::sys::ExecuteAndWait(*diff, args);
  if (status == 0)
    std::cout << "(the pass changed nothing)\n";
  return status == 0 || status == 1;
}

} // namespace

int main(int argc, char **argv) {
  if (txl::wantsToPtx(argc, argv)) // its own command line (ToPtx.cpp)
    return txl::runToPtx(argc, argv);
  for (int i = 0; i < argc; ++i)
    commandLine += (i ? " " : "") + shellQuote(argv[i]);
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  llvm::sys::AddSignalHandler(reportCrash, nullptr);
  txl::CompileOptions options;
  std::string file, signature, outDir = ".";
  bool haveSignature = false, listOnly = false, aot = false;
  std::string diffPass, htmlPath;
  bool wantSass = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        usageError(std::string("missing value for ") + name);
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--version") {
      std::cout << "txlc: " << txl::compilerVersion() << "\n";
      return 0;
    } else if (arg == "--list-builtins") {
      std::cout << txl::listBuiltins();
      return 0;
    } else if (arg == "--kernel-name") {
      options.kernelName = value("--kernel-name");
    } else if (arg == "--signature") {
      signature = value("--signature");
      haveSignature = true;
    } else if (arg == "--num-warps" || arg == "--num-warpgroups" ||
               arg == "--num-stages" || arg == "--num-ctas" ||
               arg == "--maxnreg") {
      int *field = arg == "--num-warps"        ? &options.numWarps
                   : arg == "--num-warpgroups" ? &options.numWarpgroups
                   : arg == "--num-ctas"       ? &options.numCtas
                   : arg == "--maxnreg"        ? &options.maxnreg
                                               : &options.numStages;
      if (!parseInt(value(arg.c_str()), *field))
        return usageError(arg + " needs a positive integer");
    } else if (arg == "--target") {
      options.target = value("--target");
      if (options.target != "sm_80" && options.target != "sm_90a" &&
          options.target != "sm_100a" && options.target != "sm_120a")
        return usageError("unknown target '" + options.target +
                          "' (sm_80, sm_90a, sm_100a or sm_120a)");
    } else if (arg == "--out-dir") {
      outDir = value("--out-dir");
    } else if (arg == "-I" || arg == "--include-dir") {
      options.includeDirs.push_back(value("-I"));
    } else if (arg.size() > 2 && arg.compare(0, 2, "-I") == 0) {
      options.includeDirs.push_back(arg.substr(2));
    } else if (arg == "--no-fp-fusion") {
      options.enableFpFusion = false;
    } else if (arg == "--no-reflect-ftz") {
      options.enableReflectFtz = false;
    } else if (arg == "--no-cubin") {
      options.skipCubin = true;
    } else if (arg == "--dump-ir") {
      options.dumpIR = true;
    } else if (arg == "--list-passes") {
      listOnly = true;
    } else if (arg == "--print-after-all") {
      options.printAfterAllDir = value("--print-after-all");
    } else if (arg == "--aot") {
      aot = true;
    } else if (arg == "--dump-locations") {
      options.dumpLocations = true;
    } else if (arg == "--ptx-override") {
      options.ptxOverrideFile = value("--ptx-override");
    } else if (arg == "--sass") {
      wantSass = true;
    } else if (arg == "--html") {
      htmlPath = value("--html");
      options.dumpLocations = true; // the IR rows find their lines
    } else if (arg == "--diff-pass") {
      diffPass = value("--diff-pass");
    } else if (arg == "--debug-sync") {
      options.debugSync = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return usageError("unknown option '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return usageError("more than one input file");
    }
  }
  if (listOnly) {
    printPasses(txl::listPasses(options));
    return 0;
  }
  if (file.empty())
    return usageError("no input file");
  const txl::PassInfo *diffed = nullptr;
  std::vector<txl::PassInfo> passes = txl::listPasses(options);
  if (!diffPass.empty()) {
    diffed = findPass(passes, diffPass);
    if (!diffed)
      return usageError("--diff-pass: no pass '" + diffPass +
                        "' (see txlc --list-passes)");
    if (options.printAfterAllDir.empty())
      options.printAfterAllDir = scratchDirectory();
  }
  if (options.kernelName.empty())
    return usageError("--kernel-name is required");
  if (!haveSignature)
    return usageError("--signature is required");
  if (options.numWarps & (options.numWarps - 1))
    return usageError("--num-warps must be a power of two");

  std::string error;
  if (!txl::parseSignature(signature, options.signature, error))
    return usageError("bad --signature: " + error);
  std::string source;
  if (std::string why = readSource(file, source); !why.empty()) {
    std::cerr << file << ": error: " << why << "\n";
    return 1;
  }

  txl::CompiledKernel kernel;
  std::string diagnostics;
  if (!txl::compileKernel(source, file, options, kernel, diagnostics)) {
    std::cerr << diagnostics;
    if (!diagnostics.empty() && diagnostics.back() != '\n')
      std::cerr << "\n";
    return 1;
  }
  std::cerr << kernel.assemblerWarnings();
  if (diffed)
    return printPassDiff(*diffed, options.printAfterAllDir) ? 0 : 1;
  std::error_code ec;
  std::filesystem::create_directories(outDir, ec);
  std::string base = outDir + "/" + kernel.name;
  std::string json = kernel.metadataJson();
  bool ok = writeFile(base + ".txlir", kernel.txlir.data(), kernel.txlir.size()) &&
            writeFile(base + ".txlgir", kernel.txlgir.data(), kernel.txlgir.size()) &&
            writeFile(base + ".llir", kernel.llir.data(), kernel.llir.size()) &&
            writeFile(base + ".ptx", kernel.ptx.data(), kernel.ptx.size()) &&
            writeFile(base + ".json", json.data(), json.size());
  if (!kernel.cubin.empty())
    ok = ok && writeFile(base + ".cubin", kernel.cubin.data(), kernel.cubin.size());
  if (aot) {
    txl::AotFiles files = txl::generateAot(kernel, json, signature);
    ok = ok &&
         writeFile(base + ".h", files.header.data(), files.header.size()) &&
         writeFile(base + ".c", files.source.data(), files.source.size());
  }
  if (!ok) {
    std::cerr << "txlc: error: cannot write artifacts to '" << outDir << "'\n";
    return 1;
  }
  if (wantSass || !htmlPath.empty()) {
    std::string why;
    if (!txl::writeInspection(kernel, source, wantSass ? base + ".sass" : "",
                              htmlPath, why)) {
      std::cerr << "txlc: error: " << why << "\n";
      return 1;
    }
  }
  std::cout << "compiled " << kernel.name << " for " << kernel.target << " -> "
            << base << ".{txlir,txlgir,llir,ptx" << (kernel.cubin.empty() ? "" : ",cubin")
            << ",json" << (aot ? ",h,c" : "") << (wantSass ? ",sass" : "")
            << "} (cubin by "
            << kernel.cubinProducer << ", "
            << kernel.sharedBytes << " B shared";
  if (kernel.ptxas.known())
    std::cout << ", " << kernel.ptxas.registers << " registers, "
              << kernel.ptxas.spillBytes() << " B spilled";
  std::cout << ")\n";
  if (kernel.globalScratchBytes > 0)
    std::cout << "note: the kernel takes a hidden last parameter: a global "
                 "scratch buffer of "
              << kernel.globalScratchBytes
              << " B per program (global_scratch_bytes in " << kernel.name
              << ".json)\n";
  return 0;
}
