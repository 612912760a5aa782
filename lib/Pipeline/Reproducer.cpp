//===- Reproducer.cpp - What an internal compiler failure leaves behind
//----===//
#include "txl/Pipeline/Reproducer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace txl {

namespace {

std::string reproducerRoot() {
  if (const char *dir = std::getenv("TXL_REPRO_DIR"); dir && *dir)
    return dir;
  llvm::SmallString<128> tmp;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmp);
  llvm::sys::path::append(tmp, "txl-repro");
  return tmp.str().str();
}

bool writeText(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << text;
  return !os.has_error();
}

/// A file stream that exists only once MLIR asks for it (on a failure).
struct FileStream : mlir::ReproducerStream {
  FileStream(std::string path, std::error_code &ec)
      : path(std::move(path)), stream(this->path, ec) {}
  llvm::StringRef description() override { return path; }
  llvm::raw_ostream &os() override { return stream; }
  std::string path;
  llvm::raw_fd_ostream stream;
};

std::string shellQuote(const std::string &text) {
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

} // namespace

Reproducer::Reproducer(const std::string &source, const std::string &fileName,
                       const CompileOptions &options,
                       const std::string &sourceHash)
    : source(source), fileName(fileName), options(options) {
  std::string key = sourceHash.substr(0, 12) + "-" + options.target + "-w" +
                    std::to_string(options.numWarps) + "x" +
                    std::to_string(options.numWarpgroups);
  llvm::SmallString<256> path(reproducerRoot());
  llvm::sys::path::append(path, options.kernelName + "-" + key);
  dir = path.str().str();
}

void Reproducer::attach(mlir::PassManager &pm, const std::string &stage) {
  std::string path = dir + "/" + stage + ".reproducer.mlir";
  std::string where = dir;
  pm.enableCrashReproducerGeneration(
      [path,
       where](std::string &error) -> std::unique_ptr<mlir::ReproducerStream> {
        llvm::sys::fs::create_directories(where);
        std::error_code ec;
        auto stream = std::make_unique<FileStream>(path, ec);
        if (ec) {
          error = "cannot write " + path + ": " + ec.message();
          return nullptr;
        }
        return stream;
      },
      /*genLocalReproducer=*/true);
}

void Reproducer::discard(const std::string &stage) {
  llvm::sys::fs::remove(dir + "/" + stage + ".reproducer.mlir");
  llvm::sys::fs::remove(dir); // only if now empty
}

std::string Reproducer::write(const std::string &stage, mlir::ModuleOp module) {
  if (llvm::sys::fs::create_directories(dir))
    return "";
  if (!writeText(dir + "/source.py", source))
    return "";
  if (module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo(true));
    writeText(dir + "/" + stage + ".mlir", text);
  }
  std::string command =
      "# The compile that failed (stage '" + stage + "'), from " + fileName +
      ":\ntxlc source.py --kernel-name " + options.kernelName +
      " --signature " + shellQuote(formatSignature(options.signature)) +
      " --num-warps " + std::to_string(options.numWarps) +
      " --num-warpgroups " + std::to_string(options.numWarpgroups) +
      " --num-stages " + std::to_string(options.numStages) + " --num-ctas " +
      std::to_string(options.numCtas) + " --target " + options.target +
      (options.debugSync ? " --debug-sync" : "") + " --out-dir out\n";
  if (llvm::sys::fs::exists(dir + "/" + stage + ".reproducer.mlir"))
    command += "# The failing pass alone, on the IR right before it:\n"
               "txl-opt --run-reproducer " +
               stage + ".reproducer.mlir\n";
  if (!options.globals.empty()) {
    command += "# Module-level values the Python package handed over:\n";
    for (const auto &[name, value] : options.globals)
      command += "#   " + name + " = " + value + "\n";
  }
  return writeText(dir + "/command.sh", command) ? dir : "";
}

} // namespace txl
