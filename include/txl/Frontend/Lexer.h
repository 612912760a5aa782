//===- Lexer.h - Tokens of the Python kernel subset ------------*- C++ -*-===//
//
// Turns a SourceFile into a flat token vector with Python's NEWLINE / INDENT
// / DEDENT tokens, exactly as Python's tokenizer would place them (blank and
// comment-only lines make no tokens; newlines inside brackets and after a
// backslash continuation are ignored). Line endings are CPython's: `\n`,
// `\r\n` and a lone `\r` each end a line, everywhere (also inside comments
// and strings). Every token knows its 1-based
// line:col (byte column). A lexical error (bad character, NUL byte, invalid
// UTF-8, unterminated string, malformed number, inconsistent dedent, bracket
// never closed) is thrown as a CompileError pointing at the culprit.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_FRONTEND_LEXER_H
#define TXL_FRONTEND_LEXER_H

#include "txl/Frontend/Diagnostics.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace txl {

struct Token {
  enum class Kind {
    Name,      ///< identifier; `text` is the name
    Keyword,   ///< `def`, `if`, `True`, ...; `text` is the keyword
    Int,       ///< `intValue` (two's complement bits if >= 2^63)
    Float,     ///< `floatValue`
    Imaginary, ///< `2j`: `floatValue` is the imaginary part
    String,    ///< `text` is the decoded value, `stringPrefix` lower-cased
    /// An f-string is FStringStart (`stringPrefix`), then FStringMiddle
    /// (decoded literal text) and `{` expression [`=`] [`!` NAME]
    /// [`:` spec...] `}` pieces, then FStringEnd, as in Python 3.12
    /// (PEP 701: quotes may be reused inside the braces).
    FStringStart,
    FStringMiddle,
    FStringEnd,
    Op,        ///< punctuation; `text` is its spelling ("(", "**=", "->")
    Newline,   ///< end of a logical line; loc is the line end
    Indent,    ///< loc is the first character of the indented line
    Dedent,    ///< loc is the first character of the dedented line
    EndOfFile, ///< loc is just past the last character
  };

  Kind kind = Kind::EndOfFile;
  SourceLoc loc;
  std::string text;
  uint64_t intValue = 0;
  double floatValue = 0.0;
  std::string stringPrefix;
  /// An Int literal of 2^64 or more (host code may hold one; a kernel
  /// cannot): `intValue` is meaningless.
  bool tooLarge = false;
  /// Source spelling of a number literal, for messages; for the `=` of an
  /// f-string's `{expr=}`, the source text of `expr=` with its spaces.
  std::string spelling;

  bool isOp(const char *s) const { return kind == Kind::Op && text == s; }
  bool isKeyword(const char *s) const {
    return kind == Kind::Keyword && text == s;
  }
  /// "'('", "name 'x'", "end of line", ... for error messages.
  std::string describe() const;
};

/// True for Python's reserved words (including True/False/None).
bool isPythonKeyword(const std::string &word);

/// Deepest indentation (open indented blocks) the lexer accepts, as
/// CPython's tokenizer: deeper is "too many levels of indentation".
constexpr int kMaxIndentLevels = 99;

/// Tokenizes the whole file; the last token is EndOfFile, preceded by a
/// Newline (if any token precedes it) and by the Dedents that close all open
/// blocks. Throws CompileError on a lexical error.
std::vector<Token> tokenize(const SourceFile &file);

/// Like tokenize, but a lexical error does not throw: the tokens before it
/// come back, ending with an EndOfFile at the error, and the error goes to
/// `error`. The parser reports it only when it reaches that token, so that
/// an earlier syntax error is reported first, as with CPython's streaming
/// tokenizer.
std::vector<Token> tokenizeUntilError(const SourceFile &file,
                                      std::unique_ptr<CompileError> &error);

} // namespace txl

#endif // TXL_FRONTEND_LEXER_H
