//===- Diagnostics.cpp - Source files and error formatting ----------------===//

#include "txl/Frontend/Diagnostics.h"

namespace txl {

SourceFile::SourceFile(std::string name, std::string text)
    : name(std::move(name)), text(std::move(text)) {
  if (this->text.empty())
    return;
  lineStarts.push_back(0);
  for (size_t i = 0; i < this->text.size(); ++i)
    if (this->text[i] == '\n' && i + 1 < this->text.size())
      lineStarts.push_back(i + 1);
}

std::string_view SourceFile::getLine(int n) const {
  if (n < 1 || n > getNumLines())
    return {};
  size_t begin = lineStarts[n - 1];
  size_t end = text.find('\n', begin);
  if (end == std::string::npos)
    end = text.size();
  if (end > begin && text[end - 1] == '\r')
    --end;
  return std::string_view(text).substr(begin, end - begin);
}

std::string caretLine(std::string_view line, int col) {
  std::string caret;
  // Copy tabs so the caret lines up; UTF-8 continuation bytes take no
  // terminal column; anything else (including bytes past the line end)
  // takes one.
  for (int i = 0; i + 1 < col; ++i) {
    unsigned char c = i < static_cast<int>(line.size())
                          ? static_cast<unsigned char>(line[i])
                          : ' ';
    if (c == '\t')
      caret += '\t';
    else if ((c & 0xC0) != 0x80)
      caret += ' ';
  }
  caret += '^';
  return caret;
}

// Printable copy of a source line: control bytes (binary garbage, NUL)
// would wreck a terminal, so they become '?'. Tabs and UTF-8 stay.
static std::string printableLine(std::string_view line) {
  std::string out(line);
  for (char &c : out) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && u != '\t') || u == 0x7F)
      c = '?';
  }
  return out;
}

static const char *severityName(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string formatDiagnostic(const SourceFile &file, const Diagnostic &diag) {
  std::string out = file.getName() + ":";
  if (diag.loc.isValid())
    out += std::to_string(diag.loc.line) + ":" + std::to_string(diag.loc.col) +
           ":";
  out += std::string(" ") + severityName(diag.severity) + ": " + diag.message +
         "\n";
  if (!diag.loc.isValid() || diag.loc.line > file.getNumLines())
    return out;
  std::string_view line = file.getLine(diag.loc.line);
  out += printableLine(line) + "\n" + caretLine(line, diag.loc.col) + "\n";
  return out;
}

void DiagnosticEngine::error(SourceLoc loc, std::string message) {
  diags.push_back({Severity::Error, loc, std::move(message)});
  ++numErrors;
}

void DiagnosticEngine::warning(SourceLoc loc, std::string message) {
  diags.push_back({Severity::Warning, loc, std::move(message)});
}

void DiagnosticEngine::note(SourceLoc loc, std::string message) {
  diags.push_back({Severity::Note, loc, std::move(message)});
}

std::string DiagnosticEngine::str() const {
  std::string out;
  for (const Diagnostic &d : diags)
    out += formatDiagnostic(file, d);
  return out;
}

CompileError
DiagnosticEngine::makeError(SourceLoc loc, std::string message,
                            const std::vector<Diagnostic> &notes) const {
  std::string text = formatDiagnostic(file, {Severity::Error, loc, message});
  for (const Diagnostic &n : notes)
    text += formatDiagnostic(file, {Severity::Note, n.loc, n.message});
  return CompileError(loc, std::move(message), std::move(text));
}

void DiagnosticEngine::fail(SourceLoc loc, std::string message,
                            const std::vector<Diagnostic> &notes) const {
  throw makeError(loc, std::move(message), notes);
}

} // namespace txl
