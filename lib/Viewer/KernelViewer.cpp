//===- KernelViewer.cpp - One HTML page from source to SASS ---------------===//
#include "txl/Viewer/KernelViewer.h"
#include "txl/Viewer/SourceMap.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace txl {

namespace {

// The page: HTML, CSS and script with the data slot
// `/*TXL_VIEWER_DATA*/null` (ViewerPage.html, embedded at build time).
const char *kPage =
#include "ViewerPage.inc"
    ;

llvm::json::Array rowsJson(const std::vector<ListingRow> &rows) {
  llvm::json::Array out;
  for (const ListingRow &row : rows)
    out.push_back(llvm::json::Array{row.text, row.line});
  return out;
}

llvm::json::Object listing(llvm::StringRef name, llvm::StringRef title,
                           const std::vector<ListingRow> &rows,
                           llvm::StringRef note) {
  bool mapped = false;
  for (const ListingRow &row : rows)
    mapped |= row.line != 0;
  llvm::json::Object out{
      {"name", name}, {"title", title}, {"rows", rowsJson(rows)}};
  if (!note.empty())
    out["note"] = note;
  else if (!mapped && !rows.empty())
    out["note"] = "no source locations in this listing";
  return out;
}

/// Per source line, SASS instructions by class.
llvm::json::Object sassCounts(const std::vector<ListingRow> &rows) {
  std::map<int, std::map<std::string, int>> counts;
  for (const ListingRow &row : rows) {
    llvm::StringRef kind = sassInstructionClass(row.text);
    if (!kind.empty() && row.line)
      ++counts[row.line][kind.str()];
  }
  llvm::json::Object out;
  for (auto &[line, byKind] : counts) {
    llvm::json::Object entry;
    for (auto &[kind, n] : byKind)
      entry[kind] = n;
    out[std::to_string(line)] = std::move(entry);
  }
  return out;
}

llvm::json::Array sourceLines(llvm::StringRef source) {
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  llvm::json::Array out;
  for (llvm::StringRef line : lines)
    out.push_back(line.rtrim("\r"));
  return out;
}

/// JSON inside <script>: "</" would end the element early.
std::string scriptSafe(std::string json) {
  for (size_t at = 0; (at = json.find("</", at)) != std::string::npos; at += 3)
    json.replace(at, 2, "<\\/");
  return json;
}

} // namespace

std::string renderKernelViewer(const ViewerInput &in) {
  llvm::json::Value metadata = llvm::json::Object{};
  if (auto parsed = llvm::json::parse(in.metadataJson))
    metadata = std::move(*parsed);
  auto sass = mapSassListing(in.sass, in.sourceFile);
  llvm::json::Array listings;
  listings.push_back(
      listing("txlir", "tile IR", mapMlirListing(in.txlir, in.sourceFile), ""));
  listings.push_back(listing("txlgir", "GPU IR",
                             mapMlirListing(in.txlgir, in.sourceFile), ""));
  listings.push_back(listing("llir", "LLVM IR", mapLlvmListing(in.llir), ""));
  listings.push_back(
      listing("ptx", "PTX", mapPtxListing(in.ptx, in.sourceFile), ""));
  listings.push_back(listing("sass", "SASS", sass, in.sassMissing));
  llvm::json::Object data{{"file", in.sourceFile},
                          {"source", sourceLines(in.source)},
                          {"listings", std::move(listings)},
                          {"counts", sassCounts(sass)},
                          {"metadata", std::move(metadata)}};
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::json::Value(std::move(data));
  std::string page = kPage;
  const std::string slot = "/*TXL_VIEWER_DATA*/null";
  size_t at = page.find(slot);
  if (at != std::string::npos)
    page.replace(at, slot.size(), scriptSafe(json));
  return page;
}

} // namespace txl
