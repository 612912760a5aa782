//===- txlc.cpp - ahead-of-time kernel compiler ----------------------------===//
//
// Compiles one kernel of a Python file for a named target with no GPU and
// writes every stage's artifact: NAME.txlir .txlgir .llir .ptx .cubin .json.
//
//===----------------------------------------------------------------------===//
#include "txl/Pipeline/Pipeline.h"

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
  --target T             sm_80 | sm_90a | sm_100a (default sm_90a)
  --out-dir DIR          where to write artifacts (default .)
  --no-cubin             stop at PTX
  --debug-sync           bound every mbarrier wait; a timed-out wait records
                         where it waited and traps (also TXL_DEBUG_SYNC=1)
  --dump-ir              print the IR after every pass to stderr
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

} // namespace

int main(int argc, char **argv) {
  for (int i = 0; i < argc; ++i)
    commandLine += (i ? " " : "") + shellQuote(argv[i]);
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  llvm::sys::AddSignalHandler(reportCrash, nullptr);
  txl::CompileOptions options;
  std::string file, signature, outDir = ".";
  bool haveSignature = false;
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
    } else if (arg == "--kernel-name") {
      options.kernelName = value("--kernel-name");
    } else if (arg == "--signature") {
      signature = value("--signature");
      haveSignature = true;
    } else if (arg == "--num-warps" || arg == "--num-warpgroups" ||
               arg == "--num-stages" || arg == "--num-ctas") {
      int *field = arg == "--num-warps"        ? &options.numWarps
                   : arg == "--num-warpgroups" ? &options.numWarpgroups
                   : arg == "--num-ctas"       ? &options.numCtas
                                               : &options.numStages;
      if (!parseInt(value(arg.c_str()), *field))
        return usageError(arg + " needs a positive integer");
    } else if (arg == "--target") {
      options.target = value("--target");
      if (options.target != "sm_80" && options.target != "sm_90a" &&
          options.target != "sm_100a")
        return usageError("unknown target '" + options.target +
                          "' (sm_80, sm_90a or sm_100a)");
    } else if (arg == "--out-dir") {
      outDir = value("--out-dir");
    } else if (arg == "--no-cubin") {
      options.skipCubin = true;
    } else if (arg == "--dump-ir") {
      options.dumpIR = true;
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
  if (file.empty())
    return usageError("no input file");
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
  if (!ok) {
    std::cerr << "txlc: error: cannot write artifacts to '" << outDir << "'\n";
    return 1;
  }
  std::cout << "compiled " << kernel.name << " for " << kernel.target << " -> "
            << base << ".{txlir,txlgir,llir,ptx" << (kernel.cubin.empty() ? "" : ",cubin")
            << ",json} (cubin by " << kernel.cubinProducer << ", "
            << kernel.sharedBytes << " B shared)\n";
  if (kernel.globalScratchBytes > 0)
    std::cout << "note: the kernel takes a hidden last parameter: a global "
                 "scratch buffer of "
              << kernel.globalScratchBytes
              << " B per program (global_scratch_bytes in " << kernel.name
              << ".json)\n";
  return 0;
}
