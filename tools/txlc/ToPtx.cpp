//===- ToPtx.cpp - txlc/txl-opt --to-ptx: the pipeline from a dump
//---------===//
#include "ToPtx.h"

#include "txl/Pipeline/Pipeline.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <iostream>

namespace {

const char *kUsage =
    R"(usage: txlc --to-ptx FILE [-o OUT.ptx] [--cubin OUT.cubin]
                   [--after-pass N] [--num-warps N] [--num-warpgroups G]
                   [--target T]

Finishes txl's pipeline from IR dumped anywhere in it (a .txlir/.txlgir
artifact, a --print-after-all file, or an edited copy of one) and writes the
PTX (stdout without -o) and, with --cubin, the assembled cubin.
`txl-opt --to-ptx ...` runs this (the txlc next to it).

How far the IR got: a --print-after-all file's name says it (STAGE-NN-...:
after pass NN of STAGE); --after-pass N (txlc --list-passes numbering)
overrides it; otherwise IR in the LLVM dialect resumes after the GPU stage's
last pass, GPU IR with its shared memory assigned (txlgpu.shared) likewise,
and anything else resumes after the tile stage.
Options the module records (txlgpu.num_warps, .num_warpgroups, .target;
every dump has them) win over --num-warps/--num-warpgroups/--target,
which matter only for IR written without them.
)";

int usageError(const std::string &message) {
  std::cerr << "txlc --to-ptx: error: " << message << "\n" << kUsage;
  return 2;
}

/// The overall number of the last pass of `stage` before `stageNumber`
/// (0 = the stage's input).
int passNumber(const std::vector<txl::PassInfo> &passes,
               const std::string &stage, int stageNumber) {
  int before = 0;
  for (const txl::PassInfo &p : passes)
    if (p.stage == stage)
      return before + stageNumber;
    else
      before = p.number;
  return -1;
}

/// How far `text` (dumped as `file`) is through the pipeline.
int inferAfterPass(const std::vector<txl::PassInfo> &passes,
                   const std::string &file, llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> match;
  llvm::Regex dumpName("^(txlir|txlgir|llvm)-([0-9]+)-");
  if (dumpName.match(llvm::sys::path::filename(file), &match)) {
    int n = 0;
    match[2].getAsInteger(10, n);
    return passNumber(passes, match[1].str(), n);
  }
  bool lowered = text.contains("llvm.func");
  bool allocated = text.contains("txlgpu.shared =");
  if (lowered || allocated)
    return passNumber(passes, "llvm", 0);
  return passNumber(passes, "txlgir", 0);
}

bool writeBytes(const std::string &path, const char *data, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(data, std::streamsize(size));
  return bool(out);
}

} // namespace

bool txl::wantsToPtx(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--to-ptx")
      return true;
  return false;
}

int txl::runToPtx(int argc, char **argv) {
  CompileOptions options;
  std::string input, ptxPath, cubinPath;
  int afterPass = -1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&]() -> llvm::StringRef {
      return i + 1 < argc ? llvm::StringRef(argv[++i]) : llvm::StringRef();
    };
    auto number = [&](int &field) {
      llvm::StringRef text = value();
      return !text.getAsInteger(10, field) && field >= 0;
    };
    if (arg == "--to-ptx")
      continue;
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    }
    int *numberField = arg == "--after-pass"       ? &afterPass
                       : arg == "--num-warps"      ? &options.numWarps
                       : arg == "--num-warpgroups" ? &options.numWarpgroups
                                                   : nullptr;
    if (numberField) {
      if (!number(*numberField))
        return usageError(arg.str() + " needs a non-negative number");
    } else if (arg == "-o") {
      ptxPath = value().str();
    } else if (arg == "--cubin") {
      cubinPath = value().str();
    } else if (arg == "--target") {
      options.target = value().str();
    } else if (arg.starts_with("-")) {
      return usageError("unknown option '" + arg.str() + "' with --to-ptx");
    } else if (!input.empty()) {
      return usageError("more than one input file");
    } else {
      input = arg.str();
    }
  }
  if (input.empty())
    return usageError("no input file");
  auto buffer = llvm::MemoryBuffer::getFile(input);
  if (!buffer) {
    std::cerr << input << ": error: " << buffer.getError().message() << "\n";
    return 1;
  }
  std::string text = (*buffer)->getBuffer().str();
  std::vector<PassInfo> passes = listPasses(options);
  if (afterPass < 0)
    afterPass = inferAfterPass(passes, input, text);
  options.skipCubin = cubinPath.empty();
  CompiledKernel kernel;
  std::string diagnostics;
  if (!finishPipeline(text, input, afterPass, options, kernel, diagnostics)) {
    std::cerr << diagnostics;
    return 1;
  }
  if (ptxPath.empty())
    std::cout << kernel.ptx;
  else if (!writeBytes(ptxPath, kernel.ptx.data(), kernel.ptx.size()))
    return std::cerr << "txlc --to-ptx: error: cannot write " << ptxPath
                     << "\n",
           1;
  if (!cubinPath.empty()) {
    if (kernel.cubin.empty())
      return std::cerr << "txlc --to-ptx: error: no assembler (nvJitLink or "
                          "ptxas) for the cubin\n",
             1;
    if (!writeBytes(cubinPath, kernel.cubin.data(), kernel.cubin.size()))
      return std::cerr << "txlc --to-ptx: error: cannot write " << cubinPath
                       << "\n",
             1;
  }
  std::cerr << "txlc --to-ptx: " << kernel.name << " for " << kernel.target
            << " from after pass " << afterPass << " (" << kernel.sharedBytes
            << " B shared)\n";
  return 0;
}
