//===- Diagnostics.h - Source files, locations, error messages -*- C++ -*-===//
//
// Every user mistake the compiler reports looks like
//
//   kernel.py:3:5: error: unexpected indent
//       x = 1
//       ^
//   kernel.py:1:1: note: in function defined here
//   def k():
//   ^
//
// Lines and columns are 1-based. Columns count bytes of the UTF-8 source
// line (as clang and MLIR's FileLineColLoc do); the caret line copies tabs
// from the source line and skips UTF-8 continuation bytes, so the caret sits
// under the right character in a terminal.
//
// Inside the front end an error is a thrown `CompileError` (it unwinds
// arbitrarily deep recursive descent cheaply and safely); public entry points
// catch it and return failure plus the formatted text. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_FRONTEND_DIAGNOSTICS_H
#define TXL_FRONTEND_DIAGNOSTICS_H

#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace txl {

/// A position in a source file. Both fields are 1-based; {0, 0} means
/// "unknown" (formatted without line/col and without a caret).
struct SourceLoc {
  int line = 0;
  int col = 0;

  bool isValid() const { return line > 0 && col > 0; }
  bool operator==(const SourceLoc &o) const {
    return line == o.line && col == o.col;
  }
  bool operator!=(const SourceLoc &o) const { return !(*this == o); }
};

/// The text of one source file plus an index of its line starts.
class SourceFile {
public:
  SourceFile(std::string name, std::string text);

  const std::string &getName() const { return name; }
  const std::string &getText() const { return text; }
  /// Number of lines (a final line without '\n' counts; empty text has 0).
  int getNumLines() const { return static_cast<int>(lineStarts.size()); }
  /// Line `n` (1-based) without its line terminator ("\n", "\r\n" or a
  /// lone "\r", as in CPython);
  /// empty for out-of-range `n`.
  std::string_view getLine(int n) const;

private:
  std::string name;
  std::string text;
  std::vector<size_t> lineStarts;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
};

/// Formats one diagnostic: "file:line:col: error: message\n" followed, when
/// `loc` is valid and inside the file, by the source line and a caret line.
std::string formatDiagnostic(const SourceFile &file, const Diagnostic &diag);

/// The caret line for column `col` of `line` (no trailing newline).
std::string caretLine(std::string_view line, int col);

/// A user error (with optional notes) already formatted for printing.
/// Thrown inside the front end; never escapes a public entry point.
class CompileError : public std::exception {
public:
  CompileError(SourceLoc loc, std::string message, std::string formatted)
      : loc(loc), message(std::move(message)), formatted(std::move(formatted)) {
  }

  const char *what() const noexcept override { return formatted.c_str(); }
  /// Where the (first) error is.
  SourceLoc getLoc() const { return loc; }
  /// The bare message, without location or source line.
  const std::string &getMessage() const { return message; }
  /// The full text: "file:line:col: error: ..." + source line + caret
  /// (+ notes).
  const std::string &getFormatted() const { return formatted; }

private:
  SourceLoc loc;
  std::string message;
  std::string formatted;
};

/// Collects diagnostics for one source file and renders them.
class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceFile &file) : file(file) {}

  void error(SourceLoc loc, std::string message);
  void warning(SourceLoc loc, std::string message);
  /// Attaches to the diagnostic reported just before it.
  void note(SourceLoc loc, std::string message);

  bool hasErrors() const { return numErrors > 0; }
  const std::vector<Diagnostic> &getDiagnostics() const { return diags; }
  const SourceFile &getFile() const { return file; }
  /// All diagnostics, formatted, in order of report.
  std::string str() const;

  /// Builds (does not throw) the exception for an error plus optional notes.
  CompileError makeError(SourceLoc loc, std::string message,
                         const std::vector<Diagnostic> &notes = {}) const;
  /// Throws `makeError(...)`.
  [[noreturn]] void fail(SourceLoc loc, std::string message,
                         const std::vector<Diagnostic> &notes = {}) const;

private:
  const SourceFile &file;
  std::vector<Diagnostic> diags;
  int numErrors = 0;
};

} // namespace txl

#endif // TXL_FRONTEND_DIAGNOSTICS_H
