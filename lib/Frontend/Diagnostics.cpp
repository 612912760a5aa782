//===- Diagnostics.cpp - Source files and error formatting ----------------===//

#include "txl/Frontend/Diagnostics.h"

namespace txl {

// Lines end as CPython reads them: at "\n", "\r\n" or a lone "\r" (the
// lexer translates the same way, so its line numbers match these).
SourceFile::SourceFile(std::string name, std::string text)
    : name(std::move(name)), text(std::move(text)) {
  const std::string &t = this->text;
  if (t.empty())
    return;
  lineStarts.push_back(0);
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\r' && i + 1 < t.size() && t[i + 1] == '\n')
      ++i;
    if ((t[i] == '\n' || t[i] == '\r') && i + 1 < t.size())
      lineStarts.push_back(i + 1);
  }
}

std::string_view SourceFile::getLine(int n) const {
  if (n < 1 || n > getNumLines())
    return {};
  size_t begin = lineStarts[n - 1];
  size_t end = text.find_first_of("\r\n", begin);
  if (end == std::string::npos)
    end = text.size();
  return std::string_view(text).substr(begin, end - begin);
}

// Length of the well-formed UTF-8 sequence at `s[i]`, or 0 if the byte
// does not start one (the lexer reports those; here they are shown as '?').
static size_t utf8Length(std::string_view s, size_t i) {
  unsigned char c = s[i];
  size_t len = c < 0x80         ? 1
               : (c >> 5) == 6  ? 2
               : (c >> 4) == 14 ? 3
               : (c >> 3) == 30 ? 4
                                : 0;
  if (len == 0 || i + len > s.size())
    return 0;
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
      return 0;
  return len;
}

std::string caretLine(std::string_view line, int col) {
  // One terminal column per character: tabs are copied so the caret lines
  // up, a UTF-8 sequence or a stray byte counts once, and columns past the
  // end of the line (an error at end of line) are spaces.
  std::string caret;
  size_t target = col > 0 ? size_t(col - 1) : 0;
  size_t i = 0;
  while (i < target) {
    if (i >= line.size()) {
      caret += ' ';
      ++i;
      continue;
    }
    caret += line[i] == '\t' ? '\t' : ' ';
    size_t len = utf8Length(line, i);
    i += len ? len : 1;
  }
  caret += '^';
  return caret;
}

// Printable copy of a source line: control bytes and bytes that are not
// UTF-8 (binary garbage, NUL) would wreck a terminal, so they become '?'.
static std::string printableLine(std::string_view line) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    unsigned char u = static_cast<unsigned char>(line[i]);
    size_t len = utf8Length(line, i);
    if (len == 0 || (u < 0x20 && u != '\t') || u == 0x7F) {
      out += '?';
      ++i;
      continue;
    }
    out.append(line.substr(i, len));
    i += len;
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
