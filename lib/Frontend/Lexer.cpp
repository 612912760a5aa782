//===- Lexer.cpp - Python-style tokenizer with INDENT/DEDENT --------------===//
//
// One forward pass over the bytes. Indentation follows Python's tokenizer:
// a tab advances to the next multiple of 8, and the indentation is also
// measured with tab = 1 column; the two measures must order lines the same
// way, otherwise tabs and spaces are mixed inconsistently (a TabError).
//
// Line endings are translated first, as CPython reads source: `\r\n` and a
// lone `\r` become `\n`. So a `\r` inside a comment ends the comment and
// what follows it is code, exactly as Python runs the file; columns do not
// move (only the `\r` of a `\r\n`, at a line end, is dropped).
//
// f-strings are tokenized the Python 3.12 way (PEP 701): the lexer keeps a
// stack of open f-strings, and for each one a stack of open replacement
// fields; inside a field the ordinary tokens are produced (so quotes can be
// reused and fields can nest), and the literal text between fields becomes
// FStringMiddle tokens.
//
//===----------------------------------------------------------------------===//

#include "txl/Frontend/Lexer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace txl {

static const char *const kKeywords[] = {
    "False",  "None",   "True",    "and",      "as",       "assert", "async",
    "await",  "break",  "class",   "continue", "def",      "del",    "elif",
    "else",   "except", "finally", "for",      "from",     "global", "if",
    "import", "in",     "is",      "lambda",   "nonlocal", "not",    "or",
    "pass",   "raise",  "return",  "try",      "while",    "with",   "yield"};

bool isPythonKeyword(const std::string &word) {
  for (const char *k : kKeywords)
    if (word == k)
      return true;
  return false;
}

// Longest first, so the first match is the longest match.
static const char *const kOperators[] = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==",
    "!=",  "->",  ":=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@=",
    "+",   "-",   "*",   "/",   "%",   "@",  "&",  "|",  "^",  "~",  "<",  ">",
    "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "="};

std::string Token::describe() const {
  switch (kind) {
  case Kind::Name:
    return "name '" + text + "'";
  case Kind::Keyword:
    return "keyword '" + text + "'";
  case Kind::Int:
  case Kind::Float:
    return "number '" + spelling + "'";
  case Kind::Imaginary:
    return "number '" + spelling + "'";
  case Kind::String:
    return "string literal";
  case Kind::FStringStart:
    return "f-string";
  case Kind::FStringMiddle:
    return "f-string text";
  case Kind::FStringEnd:
    return "end of f-string";
  case Kind::Op:
    return "'" + text + "'";
  case Kind::Newline:
    return "end of line";
  case Kind::Indent:
    return "indent";
  case Kind::Dedent:
    return "dedent";
  case Kind::EndOfFile:
    return "end of file";
  }
  return "token";
}

/// Length of the valid UTF-8 sequence at `s[i]` (1..4), or 0 if invalid.
static int utf8SequenceLength(const std::string &s, size_t i,
                              uint32_t *codePoint = nullptr) {
  unsigned char c = s[i];
  int len;
  uint32_t cp;
  if (c < 0x80) {
    len = 1, cp = c;
  } else if (c >= 0xC2 && c <= 0xDF) {
    len = 2, cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size())
    return 0;
  for (int k = 1; k < len; ++k) {
    unsigned char cc = s[i + k];
    if ((cc & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF.
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
      (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
    return 0;
  if (codePoint)
    *codePoint = cp;
  return len;
}

static void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

// Non-ASCII letters Python accepts in identifiers (XID_Start/XID_Continue),
// approximated by the letter blocks of the scripts people write names in:
// Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic, CJK, kana,
// Hangul. Punctuation and symbols (smart quotes, math signs, NBSP) stay
// "invalid character", as in Python.
static bool isUnicodeIdentChar(uint32_t cp) {
  static const uint32_t ranges[][2] = {
      {0x00AA, 0x00AA}, {0x00B5, 0x00B5}, {0x00BA, 0x00BA}, {0x00C0, 0x00D6},
      {0x00D8, 0x00F6}, {0x00F8, 0x02AF}, {0x0370, 0x0373}, {0x0376, 0x037D},
      {0x0386, 0x0386}, {0x0388, 0x03FF}, {0x0400, 0x0481}, {0x048A, 0x052F},
      {0x0531, 0x0587}, {0x05D0, 0x05EA}, {0x0620, 0x064A}, {0x0900, 0x0DFF},
      {0x0E00, 0x0E7F}, {0x1E00, 0x1FFF}, {0x3041, 0x30FF}, {0x3400, 0x4DBF},
      {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}};
  for (const auto &r : ranges)
    if (cp >= r[0] && cp <= r[1])
      return true;
  return false;
}

// CPython's universal newlines: `\r\n` and a lone `\r` read as `\n`.
static std::string translateNewlines(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
      continue;
    }
    out += '\n';
    if (i + 1 < text.size() && text[i + 1] == '\n')
      ++i;
  }
  return out;
}

static int digitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

namespace {

class Lexer {
public:
  explicit Lexer(const SourceFile &file)
      : diag(file), src(translateNewlines(file.getText())) {}

  std::vector<Token> run();
  /// After run() threw: the tokens made so far, then EndOfFile at `loc`.
  std::vector<Token> takeTokensBeforeError(SourceLoc loc) {
    Token eof;
    eof.loc = loc;
    toks.push_back(eof);
    return std::move(toks);
  }

private:
  // Position helpers.
  char peek(size_t ahead = 0) const {
    return pos + ahead < src.size() ? src[pos + ahead] : '\0';
  }
  bool atEnd() const { return pos >= src.size(); }
  SourceLoc here() const { return {line, int(pos - lineStart) + 1}; }
  void startNewLine() {
    ++line;
    lineStart = pos;
  }
  [[noreturn]] void fail(SourceLoc loc, std::string msg,
                         const std::vector<Diagnostic> &notes = {}) {
    diag.fail(loc, std::move(msg), notes);
  }

  void validateEncoding();
  bool handleIndentation();
  void emitIndentChange(int col8, int col1, SourceLoc loc);
  void finish();
  void lexToken();
  void lexNewline();
  void lexName();
  size_t identifierLength(size_t at) const;
  void lexNumber();
  bool keywordFollows() const;
  void lexString(size_t prefixLen);
  void lexFStringStart(size_t prefixLen);
  void lexFStringText();
  bool lexFStringFieldToken();
  void closeFStringField();
  void decodeEscape(std::string &out, bool isBytes);
  void lexOperator();
  [[noreturn]] void badCharacter();
  Token &emit(Token::Kind kind, SourceLoc loc, std::string text = "");

  DiagnosticEngine diag;
  const std::string src; // newlines translated
  size_t pos = 0;
  int line = 1;
  size_t lineStart = 0;
  bool atLineStart = true;
  bool pendingLine = false; // tokens emitted since the last Newline
  std::vector<Token> toks;
  std::vector<int> indents8{0}, indents1{0};
  struct OpenBracket {
    char c;
    SourceLoc loc;
  };
  std::vector<OpenBracket> brackets;
  // An open replacement field `{...}` of an f-string: the bracket depth
  // its `{` opened, whether its format spec (after `:`) is being read, and
  // where its expression starts (for `{expr=}`).
  struct FStringField {
    size_t bracketLevel;
    bool inSpec;
    size_t exprStart;
  };
  struct OpenFString {
    char quote;
    bool triple;
    bool raw;
    SourceLoc loc;
    std::vector<FStringField> fields;
  };
  std::vector<OpenFString> fstrings;
  // True while the innermost f-string is in literal text (not inside a
  // replacement field's expression).
  bool inFStringText() const {
    return !fstrings.empty() && (fstrings.back().fields.empty() ||
                                 fstrings.back().fields.back().inSpec);
  }
};

Token &Lexer::emit(Token::Kind kind, SourceLoc loc, std::string text) {
  Token t;
  t.kind = kind;
  t.loc = loc;
  t.text = std::move(text);
  toks.push_back(std::move(t));
  if (kind != Token::Kind::Newline && kind != Token::Kind::Indent &&
      kind != Token::Kind::Dedent)
    pendingLine = true;
  return toks.back();
}

// NUL bytes and invalid UTF-8 are rejected up front, anywhere in the file
// (inside strings and comments too), with the exact location.
void Lexer::validateEncoding() {
  int ln = 1;
  size_t ls = 0;
  for (size_t i = 0; i < src.size();) {
    unsigned char c = src[i];
    SourceLoc loc{ln, int(i - ls) + 1};
    if (c == 0)
      fail(loc, "source contains a null byte");
    if (c == '\n') {
      ++ln;
      ls = ++i;
      continue;
    }
    int len = utf8SequenceLength(src, i);
    if (len == 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid UTF-8 byte 0x%02X in source",
                    unsigned(c));
      fail(loc, buf);
    }
    i += len;
  }
}

std::vector<Token> Lexer::run() {
  validateEncoding();
  // A UTF-8 byte order mark is not part of the first line's text.
  if (src.compare(0, 3, "\xEF\xBB\xBF") == 0)
    pos = 3;
  while (true) {
    if (inFStringText()) {
      lexFStringText();
      continue;
    }
    if (atLineStart && brackets.empty()) {
      if (!handleIndentation())
        continue; // blank or comment-only line consumed
      atLineStart = false;
    }
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos;
      continue;
    }
    if (atEnd())
      break;
    lexToken();
  }
  finish();
  return std::move(toks);
}

// At the start of a logical line: measure indentation, skip the line if it
// is blank, else emit INDENT/DEDENT. Returns false if the line was skipped.
bool Lexer::handleIndentation() {
  int col8 = 0, col1 = 0;
  while (true) {
    char c = peek();
    if (c == ' ')
      ++col8, ++col1;
    else if (c == '\t')
      col8 = (col8 / 8 + 1) * 8, ++col1;
    else if (c == '\f')
      col8 = col1 = 0;
    else
      break;
    ++pos;
  }
  char c = peek();
  if (atEnd())
    return true; // finish() closes the blocks
  if (c == '#') {
    while (!atEnd() && peek() != '\n')
      ++pos;
    c = peek();
  }
  if (c == '\n') {
    ++pos;
    startNewLine();
    return false;
  }
  if (atEnd())
    return true;
  emitIndentChange(col8, col1, here());
  return true;
}

void Lexer::emitIndentChange(int col8, int col1, SourceLoc loc) {
  const char *inconsistent = "inconsistent use of tabs and spaces in "
                             "indentation";
  if (col8 == indents8.back()) {
    if (col1 != indents1.back())
      fail(loc, inconsistent);
    return;
  }
  if (col8 > indents8.back()) {
    if (col1 <= indents1.back())
      fail(loc, inconsistent);
    if (int(indents8.size()) > kMaxIndentLevels)
      fail({loc.line, 1}, "too many levels of indentation");
    indents8.push_back(col8);
    indents1.push_back(col1);
    emit(Token::Kind::Indent, loc);
    return;
  }
  while (indents8.size() > 1 && col8 < indents8.back()) {
    indents8.pop_back();
    indents1.pop_back();
    emit(Token::Kind::Dedent, loc);
  }
  if (col8 != indents8.back())
    fail(loc, "unindent does not match any outer indentation level");
  if (col1 != indents1.back())
    fail(loc, inconsistent);
}

void Lexer::finish() {
  if (!fstrings.empty())
    fail(fstrings.back().loc, fstrings.back().triple
                                  ? "unterminated triple-quoted f-string "
                                    "literal"
                                  : "unterminated f-string literal");
  if (!brackets.empty()) {
    const OpenBracket &b = brackets.back();
    fail(b.loc, std::string("'") + b.c + "' was never closed");
  }
  // End-of-file tokens sit just past the last character of the last line,
  // so a diagnostic there still shows a source line.
  SourceLoc eof = here();
  if (eof.col == 1 && eof.line > 1) {
    size_t end = src.size() - 1; // the final '\n'
    size_t begin = 0;
    if (end > 0) {
      size_t nl = src.rfind('\n', end - 1);
      begin = nl == std::string::npos ? 0 : nl + 1;
    }
    eof = {eof.line - 1, int(end - begin) + 1};
  }
  if (pendingLine)
    emit(Token::Kind::Newline, eof);
  while (indents8.size() > 1) {
    indents8.pop_back();
    emit(Token::Kind::Dedent, eof);
  }
  emit(Token::Kind::EndOfFile, eof);
}

void Lexer::lexToken() {
  char c = peek();
  if (c == '#') {
    while (!atEnd() && peek() != '\n')
      ++pos;
    return;
  }
  if (c == '\n') {
    lexNewline();
    return;
  }
  if (lexFStringFieldToken())
    return;
  if (c == '\\') {
    if (peek(1) == '\n') {
      pos += 2;
      startNewLine();
      if (atEnd())
        fail(here(), "unexpected end of file after line continuation");
      return;
    }
    fail(here(), "unexpected character after line continuation character");
  }
  if (isIdentStart(c) || static_cast<unsigned char>(c) >= 0x80) {
    lexName();
    return;
  }
  if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
    lexNumber();
    return;
  }
  if (c == '"' || c == '\'') {
    lexString(0);
    return;
  }
  lexOperator();
}

void Lexer::lexNewline() {
  SourceLoc loc = here();
  if (brackets.empty() && pendingLine) {
    emit(Token::Kind::Newline, loc);
    pendingLine = false;
  }
  ++pos;
  startNewLine();
  atLineStart = brackets.empty();
}

static bool isStringPrefix(const std::string &p) {
  std::string l;
  for (char c : p)
    l += char(c | 0x20);
  return l == "r" || l == "u" || l == "b" || l == "f" || l == "br" ||
         l == "rb" || l == "fr" || l == "rf";
}

// Bytes of the identifier starting at `at` (ASCII and the letters of
// isUnicodeIdentChar); 0 if none starts there.
size_t Lexer::identifierLength(size_t at) const {
  size_t i = at;
  while (i < src.size()) {
    unsigned char c = src[i];
    if (c < 0x80) {
      if (!isIdentChar(char(c)) || (i == at && isDigit(char(c))))
        break;
      ++i;
      continue;
    }
    uint32_t cp = 0;
    int len = utf8SequenceLength(src, i, &cp);
    if (len == 0 || !isUnicodeIdentChar(cp))
      break;
    i += len;
  }
  return i - at;
}

void Lexer::lexName() {
  size_t start = pos;
  SourceLoc loc = here();
  size_t len = identifierLength(pos);
  if (len == 0)
    badCharacter();
  pos += len;
  std::string word = src.substr(start, len);
  if ((peek() == '"' || peek() == '\'') && isStringPrefix(word)) {
    pos = start;
    if (word.find_first_of("fF") != std::string::npos)
      lexFStringStart(word.size());
    else
      lexString(word.size());
    return;
  }
  if (static_cast<unsigned char>(peek()) >= 0x80)
    badCharacter();
  Token::Kind kind =
      isPythonKeyword(word) ? Token::Kind::Keyword : Token::Kind::Name;
  emit(kind, loc, std::move(word));
}

void Lexer::lexNumber() {
  size_t start = pos;
  SourceLoc loc = here();
  bool valid = true, isFloat = false, isImaginary = false, tooLarge = false;
  uint64_t value = 0;
  int base = 10;
  // Digits of `base` with single underscores between them; accumulates the
  // integer value. Returns the number of digits read.
  auto digits = [&](int b, bool allowLeadingUnderscore) {
    int n = 0;
    while (true) {
      char c = peek();
      if (c == '_') {
        if ((n == 0 && !allowLeadingUnderscore) || digitValue(peek(1)) >= b)
          valid = false;
        ++pos;
        continue;
      }
      int d = digitValue(c);
      if (d >= b)
        return n;
      if (value > (UINT64_MAX - d) / b)
        tooLarge = true;
      value = value * b + d;
      ++pos, ++n;
    }
  };
  char p1 = peek(1) | 0x20;
  if (peek() == '0' && (p1 == 'x' || p1 == 'o' || p1 == 'b')) {
    base = p1 == 'x' ? 16 : p1 == 'o' ? 8 : 2;
    pos += 2;
    if (digits(base, true) == 0)
      valid = false;
  } else {
    int intDigits = digits(10, false);
    if (peek() == '.') {
      isFloat = true;
      ++pos;
      if (isDigit(peek()))
        digits(10, false);
      else if (peek() == '_')
        valid = false;
    }
    char e = peek() | 0x20;
    if (e == 'e' && !keywordFollows()) {
      size_t sign = (peek(1) == '+' || peek(1) == '-') ? 1 : 0;
      if (isDigit(peek(1 + sign))) {
        isFloat = true;
        pos += 1 + sign;
        digits(10, false);
      } else {
        valid = false;
      }
    }
    if ((peek() | 0x20) == 'j') {
      ++pos;
      isImaginary = true;
    }
    // "007" is an error in Python 3 (but "000", "007.5" and "007j" are
    // fine).
    if (!isFloat && !isImaginary && intDigits > 1 && src[start] == '0' &&
        value != 0)
      fail(loc, "leading zeros in decimal integer literals are not "
                "permitted; use an 0o prefix for octal integers");
  }
  // A number must not run into a name or another '.': "1.2.3", "12abc";
  // Python 3.12 still reads "1if x else 2" (with a warning).
  if ((isIdentChar(peek()) && !keywordFollows()) || peek() == '.' ||
      static_cast<unsigned char>(peek()) >= 0x80)
    valid = false;
  if (!valid) {
    while (isIdentChar(peek()) || peek() == '.')
      ++pos;
    fail(loc,
         "invalid number literal '" + src.substr(start, pos - start) + "'");
  }
  std::string spelling = src.substr(start, pos - start);
  Token &t = emit(isImaginary ? Token::Kind::Imaginary
                  : isFloat   ? Token::Kind::Float
                              : Token::Kind::Int,
                  loc, spelling);
  t.tooLarge = !isFloat && !isImaginary && tooLarge;
  t.spelling = spelling;
  t.intValue = value;
  if (isFloat || isImaginary) {
    std::string clean;
    for (char c : spelling)
      if (c != '_' && (c | 0x20) != 'j')
        clean += c;
    double d = 0;
    auto result = std::from_chars(clean.data(), clean.data() + clean.size(), d);
    // Out of range: Python gives inf (overflow) or 0.0 (underflow).
    if (result.ec == std::errc::result_out_of_range)
      d = clean.find('-') == std::string::npos ? HUGE_VAL : 0.0;
    t.floatValue = d;
  }
}

// After a number: does one of the keywords Python 3.12 lets run into a
// number ("1if", "0x1for", "1else") start here?
bool Lexer::keywordFollows() const {
  static const char *const words[] = {"and", "else", "for", "if",
                                      "in",  "is",   "not", "or"};
  for (const char *w : words)
    if (src.compare(pos, std::strlen(w), w) == 0)
      return true;
  return false;
}

void Lexer::decodeEscape(std::string &out, bool isBytes) {
  // `pos` is at the backslash; the next byte exists.
  SourceLoc loc = here();
  char c = src[pos + 1];
  pos += 2;
  auto hexValue = [&](int n, const char *what) {
    uint32_t v = 0;
    for (int i = 0; i < n; ++i) {
      int d = digitValue(peek());
      if (d >= 16)
        fail(loc, std::string("truncated ") + what + " escape");
      v = v * 16 + d;
      ++pos;
    }
    return v;
  };
  switch (c) {
  case '\n':
    startNewLine();
    return;
  case '\\':
    out += '\\';
    return;
  case '\'':
    out += '\'';
    return;
  case '"':
    out += '"';
    return;
  case 'a':
    out += '\a';
    return;
  case 'b':
    out += '\b';
    return;
  case 'f':
    out += '\f';
    return;
  case 'n':
    out += '\n';
    return;
  case 'r':
    out += '\r';
    return;
  case 't':
    out += '\t';
    return;
  case 'v':
    out += '\v';
    return;
  case 'x': {
    // A byte in bytes, the code point U+00XX in str.
    uint32_t v = hexValue(2, "\\xXX");
    if (isBytes)
      out += char(v);
    else
      appendUtf8(out, v);
    return;
  }
  default:
    break;
  }
  if (c >= '0' && c <= '7') {
    uint32_t v = c - '0';
    for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i)
      v = v * 8 + (src[pos++] - '0');
    if (isBytes)
      out += char(v & 0xFF);
    else
      appendUtf8(out, v);
    return;
  }
  if (!isBytes && (c == 'u' || c == 'U')) {
    uint32_t cp =
        hexValue(c == 'u' ? 4 : 8, c == 'u' ? "\\uXXXX" : "\\UXXXXXXXX");
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      fail(loc, "invalid unicode escape");
    appendUtf8(out, cp);
    return;
  }
  // Unknown escapes (and \N{...}) are kept verbatim, as Python does.
  out += '\\';
  pos -= 1;
}

void Lexer::lexString(size_t prefixLen) {
  SourceLoc loc = here();
  std::string prefix;
  for (size_t i = 0; i < prefixLen; ++i)
    prefix += char(src[pos + i] | 0x20);
  pos += prefixLen;
  bool raw = prefix.find('r') != std::string::npos;
  bool isBytes = prefix.find('b') != std::string::npos;
  char quote = peek();
  bool triple = peek(1) == quote && peek(2) == quote;
  pos += triple ? 3 : 1;
  std::string value;
  const char *unterminated = triple ? "unterminated triple-quoted string "
                                      "literal"
                                    : "unterminated string literal";
  while (true) {
    if (atEnd())
      fail(loc, unterminated);
    char c = peek();
    if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
      pos += triple ? 3 : 1;
      break;
    }
    if (c == '\n' && !triple)
      fail(loc, unterminated);
    if (c == '\\') {
      if (pos + 1 >= src.size())
        fail(loc, unterminated);
      if (!raw) {
        decodeEscape(value, isBytes);
        continue;
      }
      // Raw strings keep the backslash, but it still protects a quote.
      value += c;
      c = src[++pos];
    }
    value += c;
    ++pos;
    if (c == '\n')
      startNewLine();
  }
  Token &t = emit(Token::Kind::String, loc, std::move(value));
  t.stringPrefix = prefix;
}

void Lexer::lexFStringStart(size_t prefixLen) {
  SourceLoc loc = here();
  std::string prefix;
  for (size_t i = 0; i < prefixLen; ++i)
    prefix += char(src[pos + i] | 0x20);
  pos += prefixLen;
  OpenFString fs;
  fs.quote = peek();
  fs.triple = peek(1) == fs.quote && peek(2) == fs.quote;
  fs.raw = prefix.find('r') != std::string::npos;
  fs.loc = loc;
  pos += fs.triple ? 3 : 1;
  Token &t = emit(Token::Kind::FStringStart, loc, prefix);
  t.stringPrefix = prefix;
  fstrings.push_back(std::move(fs));
}

// Literal text of the innermost f-string (or of a field's format spec) up
// to the next `{`, `}` or the closing quote. `{{` and `}}` are braces.
void Lexer::lexFStringText() {
  OpenFString &fs = fstrings.back();
  bool inSpec = !fs.fields.empty();
  SourceLoc textLoc = here();
  std::string value;
  auto flush = [&] {
    if (!value.empty())
      emit(Token::Kind::FStringMiddle, textLoc, std::move(value));
    value.clear();
  };
  auto atClosingQuote = [&] {
    return peek() == fs.quote &&
           (!fs.triple || (peek(1) == fs.quote && peek(2) == fs.quote));
  };
  while (true) {
    if (atEnd())
      finish(); // reports the unterminated f-string
    char c = peek();
    if (atClosingQuote()) {
      if (inSpec)
        fail(here(), "f-string: expecting '}'");
      flush();
      emit(Token::Kind::FStringEnd, here());
      pos += fs.triple ? 3 : 1;
      fstrings.pop_back();
      return;
    }
    if (c == '\n' && !fs.triple)
      fail(fs.loc, inSpec ? "f-string: expecting '}'"
                          : "unterminated f-string literal");
    if (c == '{' && !(peek(1) == '{' && !inSpec)) {
      flush();
      SourceLoc loc = here();
      brackets.push_back({'{', loc});
      emit(Token::Kind::Op, loc, "{");
      ++pos;
      fs.fields.push_back({brackets.size(), false, pos});
      return;
    }
    if (c == '}' && inSpec) {
      flush();
      closeFStringField();
      return;
    }
    if (c == '{' || c == '}') {
      if (peek(1) != c)
        fail(here(), "f-string: single '}' is not allowed");
      value += c;
      pos += 2;
      continue;
    }
    if (c == '\\' && !fs.raw && peek(1) == 'N' && peek(2) == '{') {
      // `\N{NAME}`: its braces are not a replacement field (the escape is
      // kept verbatim, as in plain strings).
      size_t close = src.find('}', pos);
      size_t end = close == std::string::npos ? src.size() : close + 1;
      value += src.substr(pos, end - pos);
      pos = end;
      continue;
    }
    if (c == '\\' && pos + 1 < src.size() && !fs.raw && peek(1) != '{' &&
        peek(1) != '}') {
      decodeEscape(value, /*isBytes=*/false);
      continue;
    }
    if (c == '\\' && pos + 1 < src.size() && fs.raw &&
        (peek(1) == fs.quote || peek(1) == '\\')) {
      value += c; // a raw backslash still protects a quote
      c = src[++pos];
    }
    value += c;
    ++pos;
    if (c == '\n')
      startNewLine();
  }
}

// Tokens of a replacement field that mean something only at its top level:
// the `}` that closes it, the `:` that starts its format spec, the `!` of a
// conversion and the `=` of `{expr=}`. Returns false for ordinary tokens.
bool Lexer::lexFStringFieldToken() {
  if (fstrings.empty() || fstrings.back().fields.empty())
    return false;
  FStringField &field = fstrings.back().fields.back();
  if (field.inSpec || brackets.size() != field.bracketLevel)
    return false;
  char c = peek();
  SourceLoc loc = here();
  if (c == '}') {
    closeFStringField();
    return true;
  }
  if (c == ':') {
    ++pos;
    emit(Token::Kind::Op, loc, ":");
    field.inSpec = true;
    return true;
  }
  if (c == '!' && peek(1) != '=') {
    ++pos;
    emit(Token::Kind::Op, loc, "!");
    return true;
  }
  if (c == '=' && peek(1) != '=') {
    size_t end = pos + 1;
    while (end < src.size() && (src[end] == ' ' || src[end] == '\t'))
      ++end;
    Token &t = emit(Token::Kind::Op, loc, "=");
    t.spelling = src.substr(field.exprStart, end - field.exprStart);
    pos = end;
    return true;
  }
  return false;
}

void Lexer::closeFStringField() {
  emit(Token::Kind::Op, here(), "}");
  ++pos;
  brackets.pop_back();
  fstrings.back().fields.pop_back();
}

void Lexer::lexOperator() {
  SourceLoc loc = here();
  for (const char *op : kOperators) {
    size_t n = std::strlen(op);
    if (src.compare(pos, n, op) != 0)
      continue;
    char c = op[0];
    if (n == 1 && (c == '(' || c == '[' || c == '{')) {
      brackets.push_back({c, loc});
    } else if (n == 1 && (c == ')' || c == ']' || c == '}')) {
      char open = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets.empty())
        fail(loc, std::string("unmatched '") + c + "'");
      if (brackets.back().c != open)
        fail(loc,
             std::string("closing '") + c + "' does not match opening '" +
                 brackets.back().c + "'",
             {{Severity::Note, brackets.back().loc, "opened here"}});
      brackets.pop_back();
    }
    pos += n;
    emit(Token::Kind::Op, loc, op);
    return;
  }
  badCharacter();
}

void Lexer::badCharacter() {
  uint32_t cp = 0;
  int len = utf8SequenceLength(src, pos, &cp);
  char buf[32];
  std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
  std::string shown;
  if (cp >= 0x20 && cp != 0x7F)
    shown = "'" + src.substr(pos, len) + "' ";
  fail(here(), "invalid character " + shown + "(" + buf + ") in source");
}

} // namespace

std::vector<Token> tokenize(const SourceFile &file) {
  return Lexer(file).run();
}

std::vector<Token> tokenizeUntilError(const SourceFile &file,
                                      std::unique_ptr<CompileError> &error) {
  Lexer lexer(file);
  try {
    return lexer.run();
  } catch (const CompileError &e) {
    error = std::make_unique<CompileError>(e);
    return lexer.takeTokensBeforeError(e.getLoc());
  }
}

} // namespace txl
