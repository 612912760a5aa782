//===- PtxasReport.cpp - Parse ptxas's verbose resource report
//-------------===//
//
// ptxas -v prints, per entry function:
//
//   ptxas info    : Compiling entry function 'k' for 'sm_90a'
//   ptxas info    : Function properties for k
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 168 registers, used 1 barriers, ...
//
// and warnings as
//
//   ptxas /tmp/x.ptx, line 812; warning : (C7510) Potential Performance ...
//   ptxas warning : (C7508) Potential Performance Loss: setmaxnreg ignored
//
// Some performance losses come as info lines instead (CUDA 13's ptxas says
// that it serialized every wgmma of a function this way), and are reported
// as warnings too:
//
//   ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async ...
//
// Each line is read on its own (the format has been stable for years, but
// nothing here fails when a line is not understood: the field stays -1).
//
//===----------------------------------------------------------------------===//
#include "txl/Target/PtxasReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

namespace txl {

namespace {

int toInt(llvm::StringRef text) {
  int value = -1;
  return text.getAsInteger(10, value) ? -1 : value;
}

/// The number right before `unit` in `line` ("168 registers"), or -1.
int numberBefore(llvm::StringRef line, llvm::StringRef unit) {
  llvm::Regex re("([0-9]+) " + unit.str());
  llvm::SmallVector<llvm::StringRef, 2> match;
  return re.match(line, &match) ? toInt(match[1]) : -1;
}

/// Where the message of a warning line starts: after "warning", or after
/// "info" for an info line that reports a performance loss; npos for any
/// other line.
size_t warningKeyword(llvm::StringRef line, size_t &keywordSize) {
  if (size_t at = line.find_insensitive("warning");
      at != llvm::StringRef::npos) {
    keywordSize = strlen("warning");
    return at;
  }
  size_t at = line.find("info");
  if (at == llvm::StringRef::npos ||
      !line.contains_insensitive("potential performance loss"))
    return llvm::StringRef::npos;
  keywordSize = strlen("info");
  return at;
}

PtxasWarning parseWarning(llvm::StringRef line, size_t at, size_t keywordSize,
                          const std::string &ptx) {
  PtxasWarning warning;
  llvm::StringRef message = line.substr(at + keywordSize);
  message = message.ltrim(" :").rtrim();
  llvm::SmallVector<llvm::StringRef, 2> match;
  if (llvm::Regex("^\\((C[0-9]+)\\) *").match(message, &match)) {
    warning.code = match[1].str();
    message = message.drop_front(match[0].size());
  }
  warning.message = message.str();
  if (llvm::Regex("line ([0-9]+)").match(line.take_front(at), &match)) {
    warning.ptxLine = toInt(match[1]);
    warning.sourceLine = sourceLineOfPtxLine(ptx, warning.ptxLine);
  }
  return warning;
}

} // namespace

int sourceLineOfPtxLine(const std::string &ptx, int ptxLine) {
  llvm::StringRef rest(ptx);
  int source = 0;
  llvm::Regex loc("^[ \t]*\\.loc[ \t]+[0-9]+[ \t]+([0-9]+)");
  llvm::SmallVector<llvm::StringRef, 2> match;
  for (int line = 1; line <= ptxLine && !rest.empty(); ++line) {
    auto [text, tail] = rest.split('\n');
    rest = tail;
    if (loc.match(text, &match) && toInt(match[1]) > 0)
      source = toInt(match[1]);
  }
  return source;
}

PtxasReport parsePtxasReport(const std::string &log,
                             const std::string &kernelName,
                             const std::string &ptx) {
  PtxasReport report;
  // Resource lines belong to the entry named by the last "Compiling entry
  // function" line; keep only those of `kernelName` (or of the only entry).
  bool mine = true;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(log).split(lines, '\n', -1, /*KeepEmpty=*/false);
  llvm::Regex entry("Compiling entry function '([^']*)'");
  llvm::SmallVector<llvm::StringRef, 2> match;
  for (llvm::StringRef line : lines) {
    if (entry.match(line, &match)) {
      mine = kernelName.empty() || match[1] == kernelName;
      continue;
    }
    size_t keywordSize = 0;
    if (size_t at = warningKeyword(line, keywordSize);
        at != llvm::StringRef::npos) {
      report.warnings.push_back(parseWarning(line, at, keywordSize, ptx));
      continue;
    }
    if (!mine)
      continue;
    if (int regs = numberBefore(line, "registers"); regs >= 0)
      report.registers = regs;
    if (int stack = numberBefore(line, "bytes stack frame"); stack >= 0)
      report.stackBytes = stack;
    if (int stores = numberBefore(line, "bytes spill stores"); stores >= 0)
      report.spillStoreBytes = stores;
    if (int loads = numberBefore(line, "bytes spill loads"); loads >= 0)
      report.spillLoadBytes = loads;
  }
  return report;
}

} // namespace txl
