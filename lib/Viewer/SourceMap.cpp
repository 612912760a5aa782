//===- SourceMap.cpp - Source lines of MLIR, LLVM IR, PTX and SASS rows ---===//
#include "txl/Viewer/SourceMap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

namespace txl {

namespace {

bool sameFile(llvm::StringRef file, llvm::StringRef sourceFile) {
  return file == sourceFile || llvm::sys::path::filename(file) ==
                                   llvm::sys::path::filename(sourceFile);
}

llvm::SmallVector<llvm::StringRef> splitLines(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  if (!lines.empty() && lines.back().empty())
    lines.pop_back();
  return lines;
}

/// The integer at the start of `text` (0 if none).
int leadingInt(llvm::StringRef text) {
  int value = 0;
  text.take_while([](char c) { return c >= '0' && c <= '9'; })
      .getAsInteger(10, value);
  return value;
}

//===--- MLIR ----------------------------------------------------------===//

/// Resolves MLIR location text (`"file":L:C`, `#locN`, `callsite(...)`,
/// `fused[...]`, `"name"(...)`) to a line of `sourceFile`: the first file
/// location of that file found left to right, following aliases.
class MlirLocations {
public:
  MlirLocations(llvm::StringRef sourceFile) : sourceFile(sourceFile) {}

  void addAlias(llvm::StringRef name, llvm::StringRef body) {
    aliases[name] = body;
  }

  int lineOf(llvm::StringRef loc, int depth = 0) const {
    if (depth > 32) // alias cycles cannot be printed, but stay bounded
      return 0;
    while (!loc.empty()) {
      size_t quote = loc.find('"'), hash = loc.find("#loc");
      if (quote == llvm::StringRef::npos && hash == llvm::StringRef::npos)
        return 0;
      if (hash < quote) {
        llvm::StringRef name = loc.substr(hash).take_while(
            [](char c) { return c == '#' || c == '_' || llvm::isAlnum(c); });
        auto it = aliases.find(name);
        if (it != aliases.end())
          if (int line = lineOf(it->second, depth + 1))
            return line;
        loc = loc.substr(hash + name.size());
        continue;
      }
      size_t close = loc.find('"', quote + 1);
      if (close == llvm::StringRef::npos)
        return 0;
      llvm::StringRef file = loc.slice(quote + 1, close);
      llvm::StringRef rest = loc.substr(close + 1);
      if (rest.starts_with(":") && sameFile(file, sourceFile))
        return leadingInt(rest.drop_front());
      loc = rest;
    }
    return 0;
  }

private:
  llvm::StringRef sourceFile;
  llvm::StringMap<llvm::StringRef> aliases;
};

/// Splits "op text loc(...)" at the trailing location, if any.
std::pair<llvm::StringRef, llvm::StringRef>
splitTrailingLoc(llvm::StringRef line) {
  size_t at = line.rfind(" loc(");
  if (at == llvm::StringRef::npos || !line.rtrim().ends_with(")"))
    return {line, ""};
  return {line.take_front(at), line.substr(at + 1)};
}

} // namespace

std::vector<ListingRow> mapMlirListing(llvm::StringRef text,
                                       llvm::StringRef sourceFile) {
  MlirLocations locations(sourceFile);
  auto lines = splitLines(text);
  for (llvm::StringRef line : lines)
    if (line.starts_with("#loc")) {
      auto [name, body] = line.split(" = ");
      locations.addAlias(name.trim(), body);
    }
  std::vector<ListingRow> rows;
  for (llvm::StringRef line : lines) {
    if (line.starts_with("#loc"))
      continue;
    auto [code, loc] = splitTrailingLoc(line);
    // Block arguments and function parameters print their own locations
    // inline; strip those too so the row reads as the plain IR.
    std::string display = code.str();
    for (size_t at; (at = display.find(" loc(")) != std::string::npos;) {
      size_t depth = 0, end = at + 1;
      for (; end < display.size(); ++end) {
        if (display[end] == '(')
          ++depth;
        else if (display[end] == ')' && --depth == 0)
          break;
      }
      display.erase(at, end + 1 - at);
    }
    rows.push_back({display, loc.empty() ? 0 : locations.lineOf(loc)});
  }
  return rows;
}

//===--- LLVM IR --------------------------------------------------------===//

std::vector<ListingRow> mapLlvmListing(llvm::StringRef text) {
  auto lines = splitLines(text);
  llvm::StringMap<int> debugLines; // "!7" -> line
  for (llvm::StringRef line : lines) {
    if (!line.starts_with("!") || !line.contains("!DILocation("))
      continue;
    size_t at = line.find("line: ");
    if (at != llvm::StringRef::npos)
      debugLines[line.split(' ').first] = leadingInt(line.substr(at + 6));
  }
  std::vector<ListingRow> rows;
  for (llvm::StringRef line : lines) {
    if (line.starts_with("!"))
      continue; // metadata: the locations themselves
    size_t at = line.find(", !dbg !");
    if (at == llvm::StringRef::npos) {
      rows.push_back({line.str(), 0});
      continue;
    }
    llvm::StringRef ref = line.substr(at + 7).take_while(
        [](char c) { return c == '!' || llvm::isDigit(c); });
    auto it = debugLines.find(ref);
    std::string display =
        (line.take_front(at) + line.substr(at + 7 + ref.size())).str();
    rows.push_back({display, it == debugLines.end() ? 0 : it->second});
  }
  return rows;
}

//===--- PTX -------------------------------------------------------------===//

std::vector<ListingRow> mapPtxListing(llvm::StringRef text,
                                      llvm::StringRef sourceFile) {
  auto lines = splitLines(text);
  llvm::DenseMap<int, bool> sourceFileIds; // .file N "name"
  for (llvm::StringRef line : lines) {
    llvm::StringRef t = line.trim();
    if (!t.starts_with(".file"))
      continue;
    llvm::StringRef rest = t.drop_front(5).trim();
    int id = leadingInt(rest);
    size_t q = rest.find('"');
    llvm::StringRef name = rest.substr(q + 1).split('"').first;
    sourceFileIds[id] =
        q != llvm::StringRef::npos && sameFile(name, sourceFile);
  }
  std::vector<ListingRow> rows;
  int current = 0;
  for (llvm::StringRef line : lines) {
    llvm::StringRef t = line.trim();
    if (t.starts_with(".section") && t.contains(".debug"))
      break; // DWARF tables follow; nothing of the kernel's code
    if (t.starts_with(".loc")) {
      llvm::StringRef rest = t.drop_front(4).trim();
      int id = leadingInt(rest);
      rest = rest.drop_while([](char c) { return llvm::isDigit(c); }).trim();
      current = sourceFileIds.lookup(id) ? leadingInt(rest) : 0;
      continue;
    }
    bool code = !t.empty() && !t.starts_with("//") && !t.starts_with(".") &&
                !t.starts_with("$") && t != "{" && t != "}";
    rows.push_back({line.str(), code ? current : 0});
  }
  return rows;
}

//===--- SASS ------------------------------------------------------------===//

namespace {

/// The opcode of an nvdisasm row "/*0010*/  @!P0 HGMMA.64x128x16 ...;".
llvm::StringRef sassOpcode(llvm::StringRef row) {
  llvm::StringRef t = row.trim();
  if (!t.starts_with("/*"))
    return "";
  t = t.split("*/").second.trim();
  if (t.starts_with("@"))
    t = t.split(' ').second.trim();
  return t.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
}

} // namespace

llvm::StringRef sassInstructionClass(llvm::StringRef row) {
  llvm::StringRef op = sassOpcode(row);
  if (op.empty())
    return "";
  if (op.ends_with("MMA") || op.ends_with("GMMA"))
    return "tensor";
  if (op.starts_with("UTC") && op.contains("MMA"))
    return "tensor";
  static const llvm::StringRef memoryOps[] = {
      "LDG",     "STG",    "LDS",    "STS",     "LDSM",   "STSM",
      "LD",      "ST",     "LDL",    "STL",     "LDGSTS", "UTMALDG",
      "UTMASTG", "UTMAPF", "UBLKCP", "UBLKRED", "UBLKPF", "ATOM",
      "ATOMS",   "ATOMG",  "RED",    "REDG",    "REDUX"};
  if (llvm::is_contained(memoryOps, op))
    return "memory";
  static const llvm::StringRef barrierOps[] = {
      "BAR",       "SYNCS",  "MEMBAR",    "WARPSYNC", "DEPBAR",
      "LDGDEPBAR", "ERRBAR", "WARPGROUP", "FENCE",    "CCTL"};
  bool barrier = llvm::is_contained(barrierOps, op) ||
                 op.starts_with("UCGABAR") || op.starts_with("UTCBAR");
  return barrier ? "barrier" : "alu";
}

std::vector<ListingRow> mapSassListing(llvm::StringRef text,
                                       llvm::StringRef sourceFile) {
  std::vector<ListingRow> rows;
  int current = 0;
  for (llvm::StringRef line : splitLines(text)) {
    llvm::StringRef t = line.trim();
    if (t.starts_with("//## File \"")) {
      llvm::StringRef rest = t.drop_front(11);
      auto [file, after] = rest.split('"');
      size_t at = after.find("line ");
      current = sameFile(file, sourceFile) && at != llvm::StringRef::npos
                    ? leadingInt(after.substr(at + 5))
                    : 0;
      continue;
    }
    rows.push_back({line.str(), sassOpcode(line).empty() ? 0 : current});
  }
  return rows;
}

} // namespace txl
