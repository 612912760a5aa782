//===- FrontendTest.cpp - Lexer, parser, AST and diagnostics tests --------===//

#include "txl/Frontend/AST.h"
#include "txl/Frontend/Diagnostics.h"
#include "txl/Frontend/Lexer.h"
#include "txl/Frontend/Parser.h"

#include "llvm/Support/Casting.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>

using namespace txl;
using llvm::cast;
using llvm::dyn_cast;

namespace {

using TK = Token::Kind;

std::vector<Token> lex(const std::string &text) {
  SourceFile file("t.py", text);
  return tokenize(file);
}

// Parses `text`; fails the test with the diagnostics on error.
std::unique_ptr<Module> parseOk(const std::string &text) {
  SourceFile file("t.py", text);
  std::string diags;
  auto m = parseModule(file, diags);
  EXPECT_TRUE(m) << diags;
  EXPECT_TRUE(diags.empty());
  return m;
}

// Parses `text` expecting an error; returns the diagnostics.
std::string parseErr(const std::string &text,
                     const std::string &name = "t.py") {
  SourceFile file(name, text);
  std::string diags;
  auto m = parseModule(file, diags);
  EXPECT_FALSE(m) << "expected an error for:\n" << text;
  return diags;
}

// The s-expression of the expression statement `src`.
std::string exprDump(const std::string &src) {
  auto m = parseOk(src + "\n");
  if (!m || m->body.size() != 1)
    return "<parse failed>";
  auto *es = dyn_cast<ExprStmt>(m->body[0].get());
  if (!es)
    return "<not an expression>";
  return es->value->str();
}

std::vector<std::string> splitLines(const std::string &s) {
  std::vector<std::string> lines;
  std::istringstream is(s);
  for (std::string l; std::getline(is, l);)
    lines.push_back(l);
  return lines;
}

} // namespace

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

TEST(Diagnostics, SourceFileLines) {
  SourceFile f("a.py", "one\r\ntwo\n\nfour");
  EXPECT_EQ(f.getNumLines(), 4);
  EXPECT_EQ(f.getLine(1), "one");
  EXPECT_EQ(f.getLine(2), "two");
  EXPECT_EQ(f.getLine(3), "");
  EXPECT_EQ(f.getLine(4), "four");
  EXPECT_EQ(f.getLine(0), "");
  EXPECT_EQ(f.getLine(5), "");
  EXPECT_EQ(SourceFile("e.py", "").getNumLines(), 0);
  EXPECT_EQ(SourceFile("e.py", "x\n").getNumLines(), 1);
}

TEST(Diagnostics, FormatWithCaretAndNote) {
  SourceFile f("k.py", "def k():\n    x = $\n");
  DiagnosticEngine d(f);
  d.error({2, 9}, "bad thing");
  d.note({1, 1}, "in here");
  EXPECT_TRUE(d.hasErrors());
  EXPECT_EQ(d.str(), "k.py:2:9: error: bad thing\n"
                     "    x = $\n"
                     "        ^\n"
                     "k.py:1:1: note: in here\n"
                     "def k():\n"
                     "^\n");
}

TEST(Diagnostics, CaretFollowsTabsAndUtf8) {
  EXPECT_EQ(caretLine("\tx = 1", 2), "\t^");
  EXPECT_EQ(caretLine("\xC3\xA9 = 1", 4), "  ^"); // 'é' is one column
  EXPECT_EQ(caretLine("ab", 5), "    ^");         // past the end of line
  EXPECT_EQ(caretLine("", 1), "^");
}

TEST(Diagnostics, CompileErrorCarriesLocation) {
  SourceFile f("k.py", "x\n");
  DiagnosticEngine d(f);
  try {
    d.fail({1, 1}, "boom", {{Severity::Note, {1, 1}, "note"}});
    FAIL() << "fail() returned";
  } catch (const CompileError &e) {
    EXPECT_EQ(e.getLoc(), (SourceLoc{1, 1}));
    EXPECT_EQ(e.getMessage(), "boom");
    EXPECT_EQ(std::string(e.what()),
              "k.py:1:1: error: boom\nx\n^\nk.py:1:1: note: note\nx\n^\n");
  }
}

TEST(Diagnostics, UnknownLocationHasNoCaret) {
  SourceFile f("k.py", "x\n");
  EXPECT_EQ(formatDiagnostic(f, {Severity::Error, {}, "m"}),
            "k.py: error: m\n");
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

TEST(Lexer, TokensAndPositions) {
  auto t = lex("x = tl.load(p + 1, mask=m)  # c\n");
  struct Want {
    TK kind;
    const char *text;
    int line, col;
  } want[] = {{TK::Name, "x", 1, 1},     {TK::Op, "=", 1, 3},
              {TK::Name, "tl", 1, 5},    {TK::Op, ".", 1, 7},
              {TK::Name, "load", 1, 8},  {TK::Op, "(", 1, 12},
              {TK::Name, "p", 1, 13},    {TK::Op, "+", 1, 15},
              {TK::Int, "1", 1, 17},     {TK::Op, ",", 1, 18},
              {TK::Name, "mask", 1, 20}, {TK::Op, "=", 1, 24},
              {TK::Name, "m", 1, 25},    {TK::Op, ")", 1, 26},
              {TK::Newline, "", 1, 32},  {TK::EndOfFile, "", 1, 32}};
  ASSERT_EQ(t.size(), std::size(want));
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i].kind, want[i].kind) << i;
    EXPECT_EQ(t[i].text, want[i].text) << i;
    EXPECT_EQ(t[i].loc, (SourceLoc{want[i].line, want[i].col})) << i;
  }
}

TEST(Lexer, LongestOperatorMatch) {
  auto t = lex("a **= b // c ** d -> e != f ... <<= >>= @ :=");
  std::vector<std::string> ops;
  for (auto &tok : t)
    if (tok.kind == TK::Op)
      ops.push_back(tok.text);
  EXPECT_EQ(ops, (std::vector<std::string>{"**=", "//", "**", "->", "!=", "...",
                                           "<<=", ">>=", "@", ":="}));
}

TEST(Lexer, KeywordsAreNotNames) {
  auto t = lex("def define None Nonex not_ in");
  EXPECT_EQ(t[0].kind, TK::Keyword);
  EXPECT_EQ(t[1].kind, TK::Name);
  EXPECT_EQ(t[2].kind, TK::Keyword);
  EXPECT_EQ(t[3].kind, TK::Name);
  EXPECT_EQ(t[4].kind, TK::Name);
  EXPECT_EQ(t[5].kind, TK::Keyword);
}

TEST(Lexer, Indentation) {
  auto t = lex("if a:\n"
               "\tb\n"
               "\n"
               "        # comment only\n"
               "\tif c:\n"
               "\t\td\n"
               "e\n");
  std::string kinds;
  for (auto &tok : t) {
    switch (tok.kind) {
    case TK::Indent:
      kinds += "I";
      break;
    case TK::Dedent:
      kinds += "D";
      break;
    case TK::Newline:
      kinds += "N";
      break;
    case TK::EndOfFile:
      kinds += "$";
      break;
    default:
      kinds += "t";
    }
  }
  // Blank and comment-only lines make no tokens, whatever their indent.
  EXPECT_EQ(kinds, "tttNItNtttNItNDDtN$");
  // INDENT/DEDENT sit at the first character of their line.
  EXPECT_EQ(t[4].kind, TK::Indent);
  EXPECT_EQ(t[4].loc, (SourceLoc{2, 2}));
  EXPECT_EQ(t[11].kind, TK::Indent);
  EXPECT_EQ(t[11].loc, (SourceLoc{6, 3}));
  EXPECT_EQ(t[14].kind, TK::Dedent);
  EXPECT_EQ(t[14].loc, (SourceLoc{7, 1}));
  // A tab (to column 8) and 8 spaces are the same level when consistent.
  EXPECT_NO_THROW(lex("if a:\n\tb\n\tc\n"));
  EXPECT_THROW(lex("if a:\n    b\n\tc\n"), CompileError);
}

TEST(Lexer, ContinuationLines) {
  auto t = lex("x = (1,\n"
               "        2) + \\\n"
               "  3\n"
               "y = [\n"
               "]\n");
  int newlines = 0;
  for (auto &tok : t) {
    EXPECT_NE(tok.kind, TK::Indent);
    newlines += tok.kind == TK::Newline;
  }
  EXPECT_EQ(newlines, 2);
  // "3" keeps its physical position.
  auto it = std::find_if(t.begin(), t.end(),
                         [](const Token &k) { return k.text == "3"; });
  ASSERT_NE(it, t.end());
  EXPECT_EQ(it->loc, (SourceLoc{3, 3}));
}

TEST(Lexer, NumberLiterals) {
  struct {
    const char *src;
    TK kind;
    uint64_t i;
    double f;
  } cases[] = {
      {"0", TK::Int, 0, 0},
      {"42", TK::Int, 42, 0},
      {"1_000_000", TK::Int, 1000000, 0},
      {"0x_FF", TK::Int, 255, 0},
      {"0XdeadBEEF", TK::Int, 0xdeadbeef, 0},
      {"0o17", TK::Int, 15, 0},
      {"0b1010", TK::Int, 10, 0},
      {"000", TK::Int, 0, 0},
      {"18446744073709551615", TK::Int, UINT64_MAX, 0},
      {"9223372036854775808", TK::Int, 9223372036854775808ull, 0},
      {"1e-5", TK::Float, 0, 1e-5},
      {".5", TK::Float, 0, 0.5},
      {"1.", TK::Float, 0, 1.0},
      {"3.25", TK::Float, 0, 3.25},
      {"1E+3", TK::Float, 0, 1000.0},
      {"1_0.2_5", TK::Float, 0, 10.25},
      {"007.5", TK::Float, 0, 7.5},
      {"1e999", TK::Float, 0, HUGE_VAL},
  };
  for (auto &c : cases) {
    auto t = lex(c.src);
    ASSERT_EQ(t[0].kind, c.kind) << c.src;
    EXPECT_EQ(t[0].spelling, c.src);
    if (c.kind == TK::Int)
      EXPECT_EQ(t[0].intValue, c.i) << c.src;
    else
      EXPECT_EQ(t[0].floatValue, c.f) << c.src;
    EXPECT_EQ(t[1].kind, TK::Newline) << c.src;
  }
}

TEST(Lexer, BadNumberLiterals) {
  for (const char *src : {"1.2.3", "1__0", "1_", "0x", "0b2", "0o8", "12abc",
                          "1e", "1e+", "08", "1_.5", "0x1.5"}) {
    std::string d = parseErr(std::string("x = ") + src + "\n");
    EXPECT_EQ(d.rfind("t.py:1:5: error: ", 0), 0u) << src << "\n" << d;
  }
}

TEST(Lexer, StringLiterals) {
  auto t = lex("a = 'x\\ty' \"q\\\"\" r'\\n' b\"\\x41\" u'{x}' '\\u00e9'\n"
               "'''line1\nline2''' z\n");
  EXPECT_EQ(t[2].text, "x\ty");
  EXPECT_EQ(t[3].text, "q\"");
  EXPECT_EQ(t[4].text, "\\n");
  EXPECT_EQ(t[4].stringPrefix, "r");
  EXPECT_EQ(t[5].text, "A");
  EXPECT_EQ(t[5].stringPrefix, "b");
  EXPECT_EQ(t[6].text, "{x}");
  EXPECT_EQ(t[7].text, "\xC3\xA9");
  EXPECT_EQ(t[8].kind, TK::Newline);
  EXPECT_EQ(t[9].text, "line1\nline2");
  EXPECT_EQ(t[9].loc, (SourceLoc{2, 1}));
  // The token after a multi-line string has its real position.
  EXPECT_EQ(t[10].text, "z");
  EXPECT_EQ(t[10].loc, (SourceLoc{3, 10}));
}

TEST(Lexer, CrlfAndBom) {
  auto t = lex("\xEF\xBB\xBFif a:\r\n    b\r\n");
  EXPECT_EQ(t[0].text, "if");
  EXPECT_EQ(t[4].kind, TK::Indent);
  EXPECT_EQ(t[4].loc, (SourceLoc{2, 5}));
  EXPECT_EQ(t[3].kind, TK::Newline);
  EXPECT_EQ(t[3].loc, (SourceLoc{1, 9}));
}

//===----------------------------------------------------------------------===//
// Parser: expressions
//===----------------------------------------------------------------------===//

TEST(Parser, Precedence) {
  struct {
    const char *src;
    const char *dump;
  } cases[] = {
      {"a + b * c", "(BinOp + (Name a) (BinOp * (Name b) (Name c)))"},
      {"a - b - c", "(BinOp - (BinOp - (Name a) (Name b)) (Name c))"},
      {"-2 ** 2", "(UnaryOp - (BinOp ** (Int 2) (Int 2)))"},
      {"2 ** -1", "(BinOp ** (Int 2) (UnaryOp - (Int 1)))"},
      {"a ** b ** c", "(BinOp ** (Name a) (BinOp ** (Name b) (Name c)))"},
      {"a // b % c @ d",
       "(BinOp @ (BinOp % (BinOp // (Name a) (Name b)) (Name c)) (Name d))"},
      {"a | b ^ c & d << 1 + 2",
       "(BinOp | (Name a) (BinOp ^ (Name b) (BinOp & (Name c) (BinOp << "
       "(Name d) (BinOp + (Int 1) (Int 2))))))"},
      {"a >> b << c", "(BinOp << (BinOp >> (Name a) (Name b)) (Name c))"},
      {"~a + -b", "(BinOp + (UnaryOp ~ (Name a)) (UnaryOp - (Name b)))"},
      {"not a == b", "(UnaryOp not (Compare (Name a) == (Name b)))"},
      {"a or b and not c",
       "(BoolOp or (Name a) (BoolOp and (Name b) (UnaryOp not (Name c))))"},
      {"a and b and c", "(BoolOp and (Name a) (Name b) (Name c))"},
      {"a < b <= c != d",
       "(Compare (Name a) < (Name b) <= (Name c) != (Name d))"},
      {"a is not None", "(Compare (Name a) is not (None))"},
      {"a not in b", "(Compare (Name a) not in (Name b))"},
      {"a in b is c", "(Compare (Name a) in (Name b) is (Name c))"},
      {"x if c else y if d else z",
       "(IfExp (Name c) (Name x) (IfExp (Name d) (Name y) (Name z)))"},
      {"a + b if c or d else e",
       "(IfExp (BoolOp or (Name c) (Name d)) (BinOp + (Name a) (Name b)) "
       "(Name e))"},
      {"a & b == c", "(Compare (BinOp & (Name a) (Name b)) == (Name c))"},
      {"(a + b) * c", "(BinOp * (BinOp + (Name a) (Name b)) (Name c))"},
      {"-x.y[0]", "(UnaryOp - (Subscript (Attr (Name x) y) (Int 0)))"},
      {"f(a)(b).c", "(Attr (Call (Call (Name f) (Name a)) (Name b)) c)"},
  };
  for (auto &c : cases)
    EXPECT_EQ(exprDump(c.src), c.dump) << c.src;
}

TEST(Parser, Atoms) {
  struct {
    const char *src;
    const char *dump;
  } cases[] = {
      {"None", "(None)"},
      {"True", "(Bool True)"},
      {"False", "(Bool False)"},
      {"1.5", "(Float 1.5)"},
      {"18446744073709551615", "(Int 18446744073709551615 u64)"},
      {"9223372036854775807", "(Int 9223372036854775807)"},
      {"'a' \"b\"", "(Str \"ab\")"},
      {"()", "(Tuple)"},
      {"(a,)", "(Tuple (Name a))"},
      {"(a, *b)", "(Tuple (Name a) (Starred (Name b)))"},
      {"[]", "(List)"},
      {"[1, 2,]", "(List (Int 1) (Int 2))"},
      {"{}", "(Dict)"},
      {"{'a': 1, **d}", "(Dict (: (Str \"a\") (Int 1)) (** (Name d)))"},
      {"...", "(Ellipsis)"},
      {"[x * 2 for x in r if x > 0]",
       "(ListComp (BinOp * (Name x) (Int 2)) (for (Name x) (Name r) (if "
       "(Compare (Name x) > (Int 0)))))"},
      {"sum(x for x, y in z)",
       "(Call (Name sum) (GenExp (Name x) (for (Tuple (Name x) (Name y)) "
       "(Name z))))"},
  };
  for (auto &c : cases)
    EXPECT_EQ(exprDump(c.src), c.dump) << c.src;
}

TEST(Parser, Subscripts) {
  struct {
    const char *src;
    const char *dump;
  } cases[] = {
      {"x[:, None]", "(Subscript (Name x) (Tuple (Slice _ _ _) (None)))"},
      {"x[None, :]", "(Subscript (Name x) (Tuple (None) (Slice _ _ _)))"},
      {"x[0]", "(Subscript (Name x) (Int 0))"},
      {"x[1:3]", "(Subscript (Name x) (Slice (Int 1) (Int 3) _))"},
      {"x[::2]", "(Subscript (Name x) (Slice _ _ (Int 2)))"},
      {"x[a:]", "(Subscript (Name x) (Slice (Name a) _ _))"},
      {"x[:b, 1:2:3]",
       "(Subscript (Name x) (Tuple (Slice _ (Name b) _) (Slice (Int 1) (Int 2) "
       "(Int 3))))"},
      {"x[i,]", "(Subscript (Name x) (Tuple (Name i)))"},
      {"x[i][j]", "(Subscript (Subscript (Name x) (Name i)) (Name j))"},
  };
  for (auto &c : cases)
    EXPECT_EQ(exprDump(c.src), c.dump) << c.src;
}

TEST(Parser, CallsWithKeywords) {
  EXPECT_EQ(exprDump("f(a, b=1)"), "(Call (Name f) (Name a) (kw b (Int 1)))");
  EXPECT_EQ(exprDump("f(*a, **k)"),
            "(Call (Name f) (Starred (Name a)) (kw ** (Name k)))");
  EXPECT_EQ(exprDump("f(\n  a,\n  b,\n)"), "(Call (Name f) (Name a) (Name b))");
  auto m = parseOk("tl.store(p, v, mask=m)\n");
  auto *call = cast<CallExpr>(cast<ExprStmt>(m->body[0].get())->value.get());
  ASSERT_TRUE(call->findKeyword("mask"));
  EXPECT_EQ(call->findKeyword("mask")->loc, (SourceLoc{1, 16}));
  EXPECT_EQ(call->opLoc, (SourceLoc{1, 9}));
  EXPECT_EQ(call->loc, (SourceLoc{1, 1}));
  EXPECT_EQ(call->findKeyword("other"), nullptr);
}

TEST(Parser, OperatorLocations) {
  auto m = parseOk("y = a  +  b < c\n");
  auto *assign = cast<AssignStmt>(m->body[0].get());
  auto *cmp = cast<CompareExpr>(assign->value.get());
  EXPECT_EQ(cmp->loc, (SourceLoc{1, 5}));
  EXPECT_EQ(cmp->opLocs[0], (SourceLoc{1, 13}));
  auto *add = cast<BinOpExpr>(cmp->left.get());
  EXPECT_EQ(add->opLoc, (SourceLoc{1, 8}));
  EXPECT_EQ(cast<NameExpr>(add->rhs.get())->loc, (SourceLoc{1, 11}));
}

//===----------------------------------------------------------------------===//
// Parser: statements
//===----------------------------------------------------------------------===//

TEST(Parser, EveryStatementKind) {
  auto m = parseOk(R"(import triton
import triton.language as tl, os.path
from triton.language import core as c, math
from . import sibling
from ..pkg import (a, b,)
from m import *
G: int = 3

@triton.jit
@txl.jit(num_warps=4)
def kernel(x_ptr, n: int, BLOCK: tl.constexpr = 128) -> None:
    "docstring"
    global G
    a = b = 1
    a, b = f()
    (c, d), *e = g
    x[0], y.z = 1, 2
    a += 1; b **= 2
    n2: tl.int32 = 0
    n3: float
    if a:
        pass
    elif b:
        pass
    elif c:
        pass
    else:
        pass
    for i, j in zip(a, b):
        if i: continue
        break
    for k in range(4):
        pass
    else:
        pass
    while a < 3:
        a = a + 1
    with ctx() as w, other():
        pass
    assert a, "message"
    assert b
    f(a)
    return a, b

def helper():
    def inner():
        nonlocal q
        return
    return
)");
  ASSERT_TRUE(m);
  std::string dump = m->str();
  const char *expected = R"((Module
  (Import triton)
  (Import triton.language as tl os.path)
  (ImportFrom triton.language core as c math)
  (ImportFrom . sibling)
  (ImportFrom ..pkg a b)
  (ImportFrom m *)
  (AnnAssign (Name G) (Name int) (Int 3))
  (FunctionDef kernel
    (decorator (Attr (Name triton) jit))
    (decorator (Call (Attr (Name txl) jit) (kw num_warps (Int 4))))
    (arg x_ptr _ _)
    (arg n (Name int) _)
    (arg BLOCK (Attr (Name tl) constexpr) (Int 128))
    (returns (None))
    body:
      (Expr (Str "docstring"))
      (Global G)
      (Assign (Name a) (Name b) = (Int 1))
      (Assign (Tuple (Name a) (Name b)) = (Call (Name f)))
      (Assign (Tuple (Tuple (Name c) (Name d)) (Starred (Name e))) = (Name g))
      (Assign (Tuple (Subscript (Name x) (Int 0)) (Attr (Name y) z)) = (Tuple (Int 1) (Int 2)))
      (AugAssign (Name a) += (Int 1))
      (AugAssign (Name b) **= (Int 2))
      (AnnAssign (Name n2) (Attr (Name tl) int32) (Int 0))
      (AnnAssign (Name n3) (Name float) _)
      (If (Name a)
        body:
          (Pass)
        orelse:
          (Elif (Name b)
            body:
              (Pass)
            orelse:
              (Elif (Name c)
                body:
                  (Pass)
                orelse:
                  (Pass)
              )
          )
      )
      (For (Tuple (Name i) (Name j)) (Call (Name zip) (Name a) (Name b))
        body:
          (If (Name i)
            body:
              (Continue)
          )
          (Break)
      )
      (For (Name k) (Call (Name range) (Int 4))
        body:
          (Pass)
        orelse:
          (Pass)
      )
      (While (Compare (Name a) < (Int 3))
        body:
          (Assign (Name a) = (BinOp + (Name a) (Int 1)))
      )
      (With (item (Call (Name ctx)) (Name w)) (item (Call (Name other)) _)
        body:
          (Pass)
      )
      (Assert (Name a) (Str "message"))
      (Assert (Name b) _)
      (Expr (Call (Name f) (Name a)))
      (Return (Tuple (Name a) (Name b)))
  )
  (FunctionDef helper
    body:
      (FunctionDef inner
        body:
          (Nonlocal q)
          (Return _)
      )
      (Return _)
  )
)
)";
  EXPECT_EQ(dump, expected);

  const FunctionDefStmt *k = m->findFunction("kernel");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->loc, (SourceLoc{11, 1}));
  EXPECT_EQ(k->nameLoc, (SourceLoc{11, 5}));
  EXPECT_EQ(k->decorators[1]->loc, (SourceLoc{10, 2}));
  ASSERT_TRUE(k->getDocstring());
  EXPECT_EQ(k->getDocstring()->stringValue, "docstring");
  ASSERT_TRUE(k->findArg("BLOCK"));
  EXPECT_EQ(k->findArg("BLOCK")->loc, (SourceLoc{11, 27}));
  EXPECT_EQ(m->findFunction("inner"), nullptr); // top level only
  EXPECT_EQ(m->getFunctions().size(), 2u);
  auto *ifs = dyn_cast<IfStmt>(k->body[10].get());
  ASSERT_TRUE(ifs);
  EXPECT_EQ(ifs->loc, (SourceLoc{21, 5}));
  auto *elif = cast<IfStmt>(ifs->orelse[0].get());
  EXPECT_TRUE(elif->isElif);
  EXPECT_EQ(elif->loc, (SourceLoc{23, 5}));
}

TEST(Parser, EmptyAndBlankFiles) {
  for (const char *src :
       {"", "\n\n", "   \n# only a comment\n", "\n  \n\t\n"}) {
    auto m = parseOk(src);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->body.empty());
    EXPECT_EQ(m->findFunction("kernel"), nullptr);
  }
}

TEST(Parser, NoTrailingNewline) {
  auto m = parseOk("def f():\n    return 1");
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->findFunction("f"));
}

TEST(Parser, RedefinitionLastWins) {
  auto m = parseOk("def f():\n  pass\ndef f():\n  return\n");
  EXPECT_EQ(m->findFunction("f")->loc, (SourceLoc{3, 1}));
}

TEST(Parser, ElifChainIsNotRecursive) {
  std::string src = "def f(x):\n    if x == 0:\n        pass\n";
  for (int i = 1; i < 2000; ++i)
    src += "    elif x == " + std::to_string(i) + ":\n        pass\n";
  auto m = parseOk(src);
  ASSERT_TRUE(m);
}

// Chains read in a loop still make deep trees, which everything after the
// parser walks recursively: past kMaxTreeDepth links they are a located
// error (CPython stops near 3000 too, with a RecursionError), never a
// stack overflow in the IR builder or the destructors.
TEST(Parser, LongChainsAreAnErrorNotACrash) {
  auto chain = [](const std::string &first, const std::string &link, int n) {
    std::string s = "x = " + first;
    for (int i = 0; i < n; ++i)
      s += link;
    return s + "\n";
  };
  EXPECT_TRUE(parseOk(chain("a", " + a", 2000)));
  for (const char *link : {" + a", ".b", "()", "[0]", " * a", " | a"}) {
    std::string d = parseErr(chain("a", link, 10000));
    EXPECT_NE(d.find("error: nesting too deep (a chain of more than 2500"),
              std::string::npos)
        << link << "\n"
        << d.substr(0, 200);
  }
  std::string elifs = "if x:\n  pass\n";
  for (int i = 0; i < 3000; ++i)
    elifs += "elif x:\n  pass\n";
  EXPECT_EQ(parseErr(elifs).rfind("t.py:5001:6: error: nesting too deep", 0),
            0u);
}

//===----------------------------------------------------------------------===//
// Real kernels
//===----------------------------------------------------------------------===//

static const char *kSoftmax = R"(import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    # Each program handles rows start, start + step, ...
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=num_stages):
        row_ptr = in_ptr + row * in_stride
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(row_ptr + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, num / den, mask=mask)
)";

static const char *kMatmul = R"(import triton
import triton.language as tl

@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64, 'GROUP_M': 8},
                      num_stages=3, num_warps=8),
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 32, 'GROUP_M': 8},
                      num_stages=4, num_warps=4),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, ACTIVATION: tl.constexpr = ""):
    """C = A x B with grouped program ordering for L2 reuse."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    c = acc.to(tl.float16)

    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def matmul(a, b):
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda_free_grid(M, N)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return c
)";

TEST(Parser, SoftmaxKernel) {
  auto m = parseOk(kSoftmax);
  ASSERT_TRUE(m);
  const FunctionDefStmt *k = m->findFunction("softmax_kernel");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->args.size(), 8u);
  EXPECT_EQ(k->args[6].annotation->str(), "(Attr (Name tl) constexpr)");
  ASSERT_EQ(k->body.size(), 3u);
  auto *loop = cast<ForStmt>(k->body[2].get());
  EXPECT_EQ(loop->loc, (SourceLoc{11, 5}));
  EXPECT_EQ(loop->body.size(), 8u);
  auto *load = cast<AssignStmt>(loop->body[3].get());
  EXPECT_EQ(load->value->str(),
            "(Call (Attr (Name tl) load) (BinOp + (Name row_ptr) (Name cols)) "
            "(kw mask (Name mask)) (kw other (UnaryOp - (Call (Name float) "
            "(Str \"inf\")))))");
}

TEST(Parser, MatmulKernel) {
  auto m = parseOk(kMatmul);
  ASSERT_TRUE(m);
  const FunctionDefStmt *k = m->findFunction("matmul_kernel");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->decorators.size(), 2u);
  EXPECT_EQ(k->args.size(), 17u);
  ASSERT_TRUE(k->getDocstring());
  auto *autotune = cast<CallExpr>(k->decorators[0].get());
  EXPECT_EQ(autotune->keywords.size(), 2u);
  EXPECT_TRUE(llvm::isa<ListExpr>(autotune->findKeyword("configs")->value));
  auto *aptrs = cast<AssignStmt>(k->body[13].get());
  EXPECT_EQ(cast<NameExpr>(aptrs->targets[0].get())->id, "a_ptrs");
  EXPECT_NE(aptrs->value->str().find(
                "(Subscript (Name offs_am) (Tuple (Slice _ _ _) (None)))"),
            std::string::npos);
  EXPECT_TRUE(m->findFunction("matmul"));
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {
struct BadCase {
  std::string src;
  int line, col;
  const char *message; // substring after "error: "
};
} // namespace

static const std::vector<BadCase> kBadCases = {
    {"x = 1\n    y = 2\n", 2, 5, "unexpected indent"},
    {"if x:\n    y = 1\n  z = 2\n", 3, 3,
     "unindent does not match any outer indentation level"},
    {"x = f(1,\n  2\n", 1, 6, "'(' was never closed"},
    {"x = [1, (2,\n", 1, 9, "'(' was never closed"},
    {"x = $y\n", 1, 5, "invalid character '$'"},
    {"y = 1 ? 2\n", 1, 7, "invalid character '?'"},
    {"x = 1\n\x01\x02\x03\n", 2, 1, "invalid character (U+0001)"},
    {"x = '\xff'\n", 1, 6, "invalid UTF-8 byte 0xFF"},
    {std::string("x = 1\0\n", 7), 1, 6, "source contains a null byte"},
    {"f = lambda x, x: x\n", 1, 15, "duplicate parameter 'x'"},
    {"if x\n    pass\n", 1, 5, "expected ':', got end of line"},
    {"while x y:\n    pass\n", 1, 9, "expected ':', got name 'y'"},
    {"def f():\nx = 1\n", 2, 1,
     "expected an indented block after function "
     "definition on line 1"},
    {"def f():\n", 1, 9, "expected an indented block"},
    {"for i in r:\n", 1, 12, "expected an indented block after 'for'"},
    {"s = 'abc\n", 1, 5, "unterminated string literal"},
    {"s = '''abc\n\n", 1, 5, "unterminated triple-quoted string literal"},
    {"x = 1.2.3\n", 1, 5, "invalid number literal '1.2.3'"},
    {"1 = x\n", 1, 1, "cannot assign to literal"},
    {"a, 2 = x\n", 1, 4, "cannot assign to literal"},
    {"None = 1\n", 1, 1, "cannot assign to None"},
    {"f() = 1\n", 1, 1, "cannot assign to function call"},
    {"a + b += 1\n", 1, 1, "cannot assign to expression"},
    {"for 1 in x:\n  pass\n", 1, 5, "cannot assign to literal"},
    {"f(a=1, b)\n", 1, 8, "positional argument follows keyword argument"},
    {"f(**k, b)\n", 1, 8, "positional argument follows keyword argument"},
    {"f(a+1=2)\n", 1, 3, "expression cannot contain assignment"},
    {"x = (1, 2]\n", 1, 10, "closing ']' does not match opening '('"},
    {"x = 1)\n", 1, 6, "unmatched ')'"},
    {"def f():\n\tif x:\n        pass\n", 3, 9,
     "inconsistent use of tabs and spaces"},
    {"x = 1 \\ y\n", 1, 7, "unexpected character after line continuation"},
    {"x = 1 2\n", 1, 7, "invalid syntax: unexpected number '2'"},
    {"x = \n", 1, 5, "expected an expression, got end of line"},
    {"x = y if z\n", 1, 11, "expected 'else' in conditional expression"},
    {"break\n", 1, 1, "'break' outside loop"},
    {"def f():\n  for i in r:\n    def g():\n      continue\n", 4, 7,
     "'continue' outside loop"},
    {"return 1\n", 1, 1, "'return' outside function"},
    {"def f(x, y=1, z):\n  pass\n", 1, 15,
     "parameter without a default follows parameter with a default"},
    {"def f(x, x):\n  pass\n", 1, 10, "duplicate parameter 'x'"},
    {"def f(*, ):\n  pass\n", 1, 7, "named arguments must follow bare *"},
    {"def f(*a, *b):\n  pass\n", 1, 11, "* argument may appear only once"},
    {"def f(/, a):\n  pass\n", 1, 7, "at least one argument must precede /"},
    {"def f(**k, a):\n  pass\n", 1, 12, "arguments cannot follow var-keyword"},
    {"class A(x=1, 2):\n  pass\n", 1, 14, "positional argument follows"},
    {"try:\n  pass\nx = 1\n", 3, 1, "expected 'except' or 'finally' block"},
    {"try:\n  pass\nexcept:\n  pass\nexcept E:\n  pass\n", 3, 1,
     "default 'except:' must be last"},
    {"try:\n  pass\nexcept A:\n  pass\nexcept* B:\n  pass\n", 5, 1,
     "cannot have both 'except' and 'except*'"},
    {"try:\n  pass\nexcept A, B:\n  pass\n", 3, 8,
     "multiple exception types must be parenthesized"},
    {"x = {1: 2, 3}\n", 1, 13, "expected ':', got '}'"},
    {"if (n.a := 10):\n  pass\n", 1, 5,
     "cannot use assignment expressions with expression"},
    {"f(x for x in y, 1)\n", 1, 3,
     "generator expression must be "
     "parenthesized"},
    {"yield x\n", 1, 1, "'yield' outside function"},
    {"x = await y\n", 1, 5, "'await' outside function"},
    {"def f():\n  await y\n", 2, 3, "'await' outside async function"},
    {"def f():\n  async for x in y:\n    pass\n", 2, 3,
     "'async for' outside async function"},
    {"del f()\n", 1, 5, "cannot delete function call"},
    {"x = f'{}'\n", 1, 8, "f-string: valid expression required"},
    {"x = f'{a!x}'\n", 1, 10, "f-string: invalid conversion character 'x'"},
    {"x = f'a}'\n", 1, 8, "f-string: single '}' is not allowed"},
    {"x = f'{a! r}'\n", 1, 11, "conversion type must come right after"},
    {"x = f'{a\n", 1, 5, "unterminated f-string literal"},
    {"x = f'abc\n", 1, 5, "unterminated f-string literal"},
    {"match x:\n  case 1 + 2:\n    pass\n", 2, 12,
     "imaginary number required in complex literal"},
    {"match x:\n  case a as _:\n    pass\n", 2, 13,
     "cannot use '_' as a target"},
    {"match x:\n  case C(a=1, b):\n    pass\n", 2, 15,
     "positional patterns follow keyword patterns"},
    {"match x:\n  y = 1\n", 2, 3, "expected 'case', got name 'y'"},
    {"nonlocal x\n", 1, 1, "nonlocal declaration not allowed at module"},
    {"type X[] = int\n", 1, 7, "type parameter list cannot be empty"},
    {"x = 1\r  y = 2\n", 2, 3, "unexpected indent"},
    {"x = *a\n", 1, 5, "can't use starred expression here"},
    {"x = (*a)\n", 1, 6, "cannot use starred expression here"},
    {"x = 012\n", 1, 5, "leading zeros"},
    {"a, b: int = 1, 2\n", 1, 1, "only single target"},
    {"@triton.jit\nx = 1\n", 2, 1, "expected 'def' after decorator"},
    {"x = a.if\n", 1, 7, "expected attribute name after '.'"},
    {"  x = 1\n", 1, 3, "unexpected indent"},
    {"s = b'a' 'b'\n", 1, 10, "cannot mix bytes and nonbytes literals"},
    {"x = '\\x4'\n", 1, 6, "truncated \\xXX escape"},
};

TEST(Parser, BadInputsHaveExactLocationAndCaret) {
  for (const BadCase &c : kBadCases) {
    std::string d = parseErr(c.src, "bad.py");
    std::string prefix = "bad.py:" + std::to_string(c.line) + ":" +
                         std::to_string(c.col) + ": error: ";
    EXPECT_EQ(d.rfind(prefix, 0), 0u) << c.src << "\n--- got:\n" << d;
    EXPECT_NE(d.find(c.message), std::string::npos) << c.src << "\n--- got:\n"
                                                    << d;
    auto lines = splitLines(d);
    ASSERT_GE(lines.size(), 3u) << d;
    // The caret line puts '^' under column `col` (ASCII source lines).
    EXPECT_EQ(lines[2].find('^'), size_t(c.col - 1)) << c.src << "\n" << d;
    EXPECT_EQ(lines[2].find_first_not_of(" \t"), size_t(c.col - 1)) << d;
  }
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  auto deep = [](const std::string &open, const std::string &mid,
                 const std::string &close, int n) {
    std::string s = "x = ";
    for (int i = 0; i < n; ++i)
      s += open;
    s += mid;
    for (int i = 0; i < n; ++i)
      s += close;
    return s + "\n";
  };
  for (int n : {500, 20000}) {
    for (auto [open, close] : std::vector<std::pair<std::string, std::string>>{
             {"(", ")"},
             {"[", "]"},
             {"-", ""},
             {"not ", ""},
             {"f(", ")"},
             {"x[", "]"},
             {"{1: ", "}"},
             {"{**", "}"},
             {"2 ** ", ""},
             {"a if b else ", ""}}) {
      std::string d = parseErr(deep(open, "1", close, n));
      EXPECT_NE(d.find(": error: nesting too deep"), std::string::npos)
          << open << " " << n << "\n"
          << d.substr(0, 200);
    }
  }
  // 500 parentheses: the 201st level (column 5 + 200) is the culprit.
  EXPECT_EQ(parseErr(deep("(", "1", ")", 500)).rfind("t.py:1:205: ", 0), 0u);
  // 150 levels are fine.
  EXPECT_TRUE(parseOk(deep("(", "1", ")", 150)));

  // Indentation stops at CPython's limit: 99 levels are fine, the 100th
  // (line 101) is "too many levels of indentation".
  auto nestedIfs = [](int n) {
    std::string blocks;
    for (int i = 0; i < n; ++i)
      blocks += std::string(i, ' ') + "if x:\n";
    return blocks + std::string(n, ' ') + "pass\n";
  };
  EXPECT_TRUE(parseOk(nestedIfs(99)));
  EXPECT_EQ(parseErr(nestedIfs(300))
                .rfind("t.py:101:1: error: too many levels of indentation", 0),
            0u);
}

// Every file in test/bad/syntax starts with "# expect: L:C: error: text".
TEST(Parser, BadSyntaxCorpus) {
  DIR *dir = opendir(TXL_BAD_SYNTAX_DIR);
  ASSERT_TRUE(dir) << TXL_BAD_SYNTAX_DIR;
  int count = 0;
  while (dirent *ent = readdir(dir)) {
    std::string name = ent->d_name;
    if (name.size() < 3 || name.substr(name.size() - 3) != ".py")
      continue;
    std::ifstream in(std::string(TXL_BAD_SYNTAX_DIR) + "/" + name,
                     std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    std::string first = text.substr(0, text.find('\n'));
    ASSERT_EQ(first.rfind("# expect: ", 0), 0u) << name;
    std::string expect = first.substr(10);
    std::string d = parseErr(text, name);
    EXPECT_EQ(d.rfind(name + ":" + expect, 0), 0u)
        << name << "\n--- want: " << expect << "\n--- got:\n"
        << d.substr(0, 300);
    ++count;
  }
  closedir(dir);
  EXPECT_GE(count, 15);
}

//===----------------------------------------------------------------------===//
// The rest of the Python 3.12 grammar (host code around kernels)
//===----------------------------------------------------------------------===//

TEST(Parser, Python312Expressions) {
  struct {
    const char *src;
    const char *dump;
  } cases[] = {
      {"{1, 2, *a}", "(Set (Int 1) (Int 2) (Starred (Name a)))"},
      {"{}", "(Dict)"},
      {"{**a, 'k': 1}", "(Dict (** (Name a)) (: (Str \"k\") (Int 1)))"},
      {"{k: v for k, v in d if k}",
       "(DictComp (Name k) (Name v) (for (Tuple (Name k) (Name v)) (Name d) "
       "(if (Name k))))"},
      {"{x for x in y}", "(SetComp (Name x) (for (Name x) (Name y)))"},
      {"(x for x in y for z in x if z if w)",
       "(GenExp (Name x) (for (Name x) (Name y)) (for (Name z) (Name x) (if "
       "(Name z)) (if (Name w))))"},
      {"lambda: 0", "(Lambda (Int 0))"},
      {"lambda a, b=1, /, c=2, *args, d, e=3, **kw: a",
       "(Lambda (arg a _ _) (arg b _ (Int 1)) (/) (arg c _ (Int 2)) (*arg "
       "args _ _) (kwonly d _ _) (kwonly e _ (Int 3)) (**arg kw _ _) (Name "
       "a))"},
      {"lambda *, k: k", "(Lambda (*) (kwonly k _ _) (Name k))"},
      {"(y := f(x))", "(NamedExpr (Name y) (Call (Name f) (Name x)))"},
      {"f(a, *b, c=1, *d, **e)",
       "(Call (Name f) (Name a) (Starred (Name b)) (Starred (Name d)) (kw c "
       "(Int 1)) (kw ** (Name e)))"},
      {"x[*a]", "(Subscript (Name x) (Tuple (Starred (Name a))))"},
      {"f\"a{x!r:>{w}}b{y=}c{{d}}\"",
       "(JoinedStr (Str \"a\") (FormattedValue (Name x) !r :(JoinedStr (Str "
       "\">\") (FormattedValue (Name w)))) (Str \"by=\") (FormattedValue "
       "(Name y) !r) (Str \"c{d}\"))"},
      // PEP 701: the same quotes inside the braces, nested f-strings.
      {"f'{x[\"k\"]}' 'tail'",
       "(JoinedStr (FormattedValue (Subscript (Name x) (Str \"k\"))) (Str "
       "\"tail\"))"},
      {"f\"{f\"{f\"{1}\"}\"}\"",
       "(JoinedStr (FormattedValue (JoinedStr (FormattedValue (JoinedStr "
       "(FormattedValue (Int 1)))))))"},
      {"f\"{x = :.2f}\"",
       "(JoinedStr (Str \"x = \") (FormattedValue (Name x) :(JoinedStr (Str "
       "\".2f\"))))"},
      {"3j + 1.5J", "(BinOp + (Complex 3j) (Complex 1.5j))"},
      {"0x_FF + 0o17 + 0b1 + 1_000",
       "(BinOp + (BinOp + (BinOp + (Int 255) (Int 15)) (Int 1)) (Int 1000))"},
      {"1if x else 2", "(IfExp (Name x) (Int 1) (Int 2))"},
      {"a if b else lambda: c", "(IfExp (Name b) (Name a) (Lambda (Name c)))"},
  };
  for (const auto &c : cases)
    EXPECT_EQ(exprDump(c.src), c.dump) << c.src;
  // "\xe9" in a str is U+00E9 (UTF-8 C3 A9); in bytes it is one byte.
  EXPECT_EQ(exprDump("'\\xe9\\351'"), "(Str \"\xC3\xA9\xC3\xA9\")");
  EXPECT_EQ(exprDump("b'\\xe9'"), "(Str b\"\xE9\")");
  // Integers past 64 bits are valid host code; the kernel builder rejects
  // them where a kernel uses one.
  EXPECT_EQ(exprDump("99999999999999999999"), "(Int 99999999999999999999 big)");
  // `\N{...}` in an f-string is an escape, not a replacement field.
  EXPECT_EQ(exprDump("f'\\N{DASH}{x}'"),
            "(JoinedStr (Str \"\\\\N{DASH}\") (FormattedValue (Name x)))");
}

// The statement dumps of each compound host statement.
TEST(Parser, Python312Statements) {
  struct {
    const char *src;
    const char *dump;
  } cases[] = {
      {"try:\n  a\nexcept (A, B) as e:\n  raise C from e\nexcept D:\n  "
       "pass\nelse:\n  b\nfinally:\n  c\n",
       "(Try\n  body:\n    (Expr (Name a))\n  (except (Tuple (Name A) (Name "
       "B)) e\n    body:\n      (Raise (Name C) (Name e))\n  )\n  (except "
       "(Name D) _\n    body:\n      (Pass)\n  )\n  orelse:\n    (Expr (Name "
       "b))\n  finally:\n    (Expr (Name c))\n)\n"},
      {"try:\n  a\nexcept* E:\n  pass\n",
       "(TryStar\n  body:\n    (Expr (Name a))\n  (except (Name E) _\n    "
       "body:\n      (Pass)\n  )\n)\n"},
      {"@dec(1)\nclass C[T: int](B, *bs, metaclass=M, **kw):\n  x: int = 1\n",
       "(ClassDef C (typeparam T (Name int)) (Name B) (Starred (Name bs)) (kw "
       "metaclass (Name M)) (kw ** (Name kw))\n  (decorator (Call (Name dec) "
       "(Int 1)))\n  body:\n    (AnnAssign (Name x) (Name int) (Int 1))\n)\n"},
      {"async def f[*Ts, **P](a, /, *, b: int = 1) -> None:\n  async for x "
       "in y:\n    await x\n  async with a as b, c:\n    yield\n  return\n",
       "(AsyncFunctionDef f (typeparam *Ts) (typeparam **P)\n  (arg a _ _)\n  "
       "(/)\n  (*)\n  (kwonly b (Name int) (Int 1))\n  (returns (None))\n  "
       "body:\n    (AsyncFor (Name x) (Name y)\n      body:\n        (Expr "
       "(HostOnly \"await\" (Name x)))\n    )\n    (AsyncWith (item (Name a) "
       "(Name b)) (item (Name c) _)\n      body:\n        (Expr (HostOnly "
       "\"yield\" _))\n    )\n    (Return _)\n)\n"},
      {"def g():\n  x = yield a, b\n  y = yield from z\n  global q\n",
       "(FunctionDef g\n  body:\n    (Assign (Name x) = (HostOnly \"yield\" "
       "(Tuple (Name a) (Name b))))\n    (Assign (Name y) = (HostOnly \"yield "
       "from\" (Name z)))\n    (Global q)\n)\n"},
      {"with (a as b, c as d,):\n  pass\n",
       "(With (item (Name a) (Name b)) (item (Name c) (Name d))\n  body:\n    "
       "(Pass)\n)\n"},
      {"with (a, b) as c:\n  pass\n",
       "(With (item (Tuple (Name a) (Name b)) (Name c))\n  body:\n    "
       "(Pass)\n)\n"},
      {"del a, b[0], c.d\n",
       "(Delete (Name a) (Subscript (Name b) (Int 0)) (Attr (Name c) d))\n"},
      {"raise\n", "(Raise _ _)\n"},
      {"type A[T] = list[T]\n",
       "(TypeAlias A (typeparam T) (Subscript (Name list) (Name T)))\n"},
      {"match p:\n  case [1, *rest] | (2, *_):\n    pass\n  case {'k': v, "
       "**kw}:\n    pass\n  case Point(1, y=-2 + 3j) as pt if pt:\n    "
       "pass\n  case None | a.b | _:\n    pass\n",
       "(Match (Name p)\n  (case (POr (PSequence (PValue (Int 1)) (PStar "
       "rest)) (PSequence (PValue (Int 2)) (PStar _)))\n    body:\n      "
       "(Pass)\n  )\n  (case (PMapping (: (Str \"k\") (PCapture v)) (** "
       "kw))\n    body:\n      (Pass)\n  )\n  (case (PAs (PClass (Name "
       "Point) (PValue (Int 1)) (kw y (PValue (BinOp + (UnaryOp - (Int 2)) "
       "(Complex 3j))))) pt) (if (Name pt))\n    body:\n      (Pass)\n  )\n  "
       "(case (POr (PSingleton (None)) (PValue (Attr (Name a) b)) "
       "(PWildcard))\n    body:\n      (Pass)\n  )\n)\n"},
  };
  for (const auto &c : cases) {
    auto m = parseOk(c.src);
    ASSERT_TRUE(m) << c.src;
    ASSERT_EQ(m->body.size(), 1u) << c.src;
    EXPECT_EQ(m->body[0]->str(), c.dump) << c.src;
  }
}

// `match`, `case`, `type` and `_` stay names outside their statements.
TEST(Parser, SoftKeywordsAreNames) {
  auto m = parseOk("match = 1\nmatch(x)\nmatch[x] = 2\ncase = type = _ = 3\n"
                   "type(x)\nmatch.x: int\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->body.size(), 6u);
  EXPECT_EQ(m->body[1]->str(), "(Expr (Call (Name match) (Name x)))\n");
  EXPECT_EQ(m->body[4]->str(), "(Expr (Call (Name type) (Name x)))\n");
}

// CPython's tokenizer: "\r\n" and a lone "\r" end a line everywhere, so a
// comment cannot hide the code after a lone "\r".
TEST(Lexer, LoneCarriageReturnEndsTheLine) {
  auto m = parseOk("x = 1 # comment\ry = 2\r\nz = 3");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->body.size(), 3u);
  EXPECT_EQ(m->body[1]->str(), "(Assign (Name y) = (Int 2))\n");
  EXPECT_EQ(m->body[1]->loc, (SourceLoc{2, 1}));
  EXPECT_EQ(m->body[2]->loc, (SourceLoc{3, 1}));
  // The lines of diagnostics agree with the lexer's.
  std::string d = parseErr("x = 1\r  y = 2\n");
  EXPECT_EQ(d, "t.py:2:3: error: unexpected indent\n  y = 2\n  ^\n");
  // A lone "\r" inside a one-line string ends it too early, as in Python.
  EXPECT_NE(parseErr("s = 'a\rb'\n").find("unterminated string literal"),
            std::string::npos);
  auto t = lex("s = '''a\r\nb\rc'''\n");
  EXPECT_EQ(t[2].text, "a\nb\nc");
  SourceFile f("f.py", "one\rtwo\r\nthree\n");
  EXPECT_EQ(f.getNumLines(), 3);
  EXPECT_EQ(f.getLine(2), "two");
  EXPECT_EQ(f.getLine(3), "three");
}

TEST(Lexer, FStringTokens) {
  auto t = lex("f'a{x!r:>{w}}b'\n");
  std::vector<std::string> got;
  for (const Token &tk : t)
    got.push_back(tk.kind == TK::FStringStart    ? "START"
                  : tk.kind == TK::FStringMiddle ? "MID:" + tk.text
                  : tk.kind == TK::FStringEnd    ? "END"
                                                 : tk.text);
  std::vector<std::string> want = {"START", "MID:a", "{", "x", "!", "r",
                                   ":",     "MID:>", "{", "w", "}", "}",
                                   "MID:b", "END",   "",  ""};
  EXPECT_EQ(got, want);
  EXPECT_EQ(t[3].loc, (SourceLoc{1, 5})); // `x` has its real column
}

// CPython's compile-time limit of 20 statically nested blocks (loops, try,
// with; `if` does not count; a def starts afresh).
TEST(Parser, TooManyStaticallyNestedBlocks) {
  auto nested = [](int n, const std::string &header) {
    std::string s;
    for (int i = 0; i < n; ++i)
      s += std::string(i, ' ') + header + "\n";
    return s + std::string(n, ' ') + "pass\n";
  };
  for (const char *header : {"for x in y:", "while x:", "with x:", "try:"}) {
    std::string twenty = nested(20, header), more = nested(21, header);
    if (std::string(header) == "try:") {
      for (int i = 19; i >= 0; --i)
        twenty += std::string(i, ' ') + "finally: pass\n";
      for (int i = 20; i >= 0; --i)
        more += std::string(i, ' ') + "finally: pass\n";
    }
    EXPECT_TRUE(parseOk(twenty)) << header;
    EXPECT_EQ(parseErr(more).rfind(
                  "t.py:21:21: error: too many statically nested blocks", 0),
              0u)
        << header;
  }
  EXPECT_TRUE(parseOk(nested(60, "if x:")));
}

// Files that must parse (test/good): every construct of the grammar.
TEST(Parser, GoodCorpus) {
  DIR *dir = opendir(TXL_GOOD_DIR);
  ASSERT_TRUE(dir) << TXL_GOOD_DIR;
  int count = 0;
  while (dirent *ent = readdir(dir)) {
    std::string name = ent->d_name;
    if (name.size() < 3 || name.substr(name.size() - 3) != ".py")
      continue;
    std::ifstream in(std::string(TXL_GOOD_DIR) + "/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    SourceFile file(name, ss.str());
    std::string diags;
    EXPECT_TRUE(parseModule(file, diags)) << diags;
    ++count;
  }
  closedir(dir);
  EXPECT_GE(count, 1);
}

//===----------------------------------------------------------------------===//
// Property tests
//===----------------------------------------------------------------------===//

namespace {
// Builds a random fully parenthesized expression and its expected dump.
struct RandomExpr {
  std::mt19937 &rng;
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

  void gen(int depth, std::string &src, std::string &dump) {
    if (depth == 0 || pick(4) == 0) {
      switch (pick(4)) {
      case 0: {
        std::string n(1, char('a' + pick(26)));
        src += n;
        dump += "(Name " + n + ")";
        return;
      }
      case 1: {
        std::string v = std::to_string(pick(100000));
        src += v;
        dump += "(Int " + v + ")";
        return;
      }
      case 2:
        src += "None";
        dump += "(None)";
        return;
      default: {
        std::string v = std::to_string(pick(1000)) + ".5";
        src += v;
        dump += "(Float " + v + ")";
        return;
      }
      }
    }
    static const char *binops[] = {"+", "-",  "*",  "/", "//", "%", "**",
                                   "@", "<<", ">>", "&", "|",  "^"};
    switch (pick(6)) {
    case 0: {
      const char *op = binops[pick(13)];
      std::string ls, ld, rs, rd;
      gen(depth - 1, ls, ld);
      gen(depth - 1, rs, rd);
      src += "(" + ls + " " + op + " " + rs + ")";
      dump += std::string("(BinOp ") + op + " " + ld + " " + rd + ")";
      return;
    }
    case 1: {
      static const char *uops[] = {"-", "+", "~", "not"};
      const char *op = uops[pick(4)];
      std::string s, d;
      gen(depth - 1, s, d);
      src += std::string("(") + op + " " + s + ")";
      dump += std::string("(UnaryOp ") + op + " " + d + ")";
      return;
    }
    case 2: {
      std::string fs, fd;
      gen(0, fs, fd);
      src += "f(" + fs;
      dump += "(Call (Name f) " + fd;
      int nkw = pick(3);
      for (int i = 0; i < nkw; ++i) {
        std::string s, d;
        gen(depth - 1, s, d);
        std::string k = "k" + std::to_string(i);
        src += ", " + k + "=" + s;
        dump += " (kw " + k + " " + d + ")";
      }
      src += ")";
      dump += ")";
      return;
    }
    case 3: {
      std::string vs, vd, is, id;
      gen(depth - 1, vs, vd);
      gen(depth - 1, is, id);
      src += "(" + vs + ")[" + is + ", :, None]";
      dump += "(Subscript " + vd + " (Tuple " + id + " (Slice _ _ _) (None)))";
      return;
    }
    case 4: {
      static const char *cmps[] = {"<", "<=", "==", "!=", "is not", "not in"};
      std::string as, ad, bs, bd, cs, cd;
      gen(depth - 1, as, ad);
      gen(depth - 1, bs, bd);
      gen(depth - 1, cs, cd);
      const char *o1 = cmps[pick(6)], *o2 = cmps[pick(6)];
      src += "(" + as + " " + o1 + " " + bs + " " + o2 + " " + cs + ")";
      dump +=
          "(Compare " + ad + " " + o1 + " " + bd + " " + o2 + " " + cd + ")";
      return;
    }
    default: {
      std::string as, ad, bs, bd, cs, cd;
      gen(depth - 1, as, ad);
      gen(depth - 1, bs, bd);
      gen(depth - 1, cs, cd);
      src += "(" + as + " if " + bs + " else " + cs + ")";
      dump += "(IfExp " + bd + " " + ad + " " + cd + ")";
      return;
    }
    }
  }
};
} // namespace

TEST(Parser, RandomExpressionsRoundTrip) {
  std::mt19937 rng(1234);
  RandomExpr gen{rng};
  for (int i = 0; i < 500; ++i) {
    std::string src, dump;
    gen.gen(5, src, dump);
    EXPECT_EQ(exprDump(src), dump) << src;
  }
}

// Random bytes, random token soup and mutated kernels never crash the
// front end; every failure is a located diagnostic.
TEST(Parser, FuzzNeverCrashes) {
  std::mt19937 rng(99);
  auto check = [](const std::string &text) {
    SourceFile file("fz.py", text);
    std::string d;
    auto m = parseModule(file, d);
    if (!m) {
      EXPECT_EQ(d.rfind("fz.py:", 0), 0u) << d;
      EXPECT_NE(d.find(": error: "), std::string::npos) << d;
    } else {
      EXPECT_TRUE(d.empty());
      (void)m->str();
    }
  };
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 300; ++i) {
    std::string s(std::uniform_int_distribution<int>(0, 200)(rng), '\0');
    for (char &c : s)
      c = char(byte(rng));
    check(s);
  }
  static const char *pieces[] = {
      "x",  "tl",     ".",    "(",     ")",      "[",      "]",  "{",
      "}",  ":",      ",",    "=",     "+",      "-",      "**", "not",
      "if", "else",   "for",  "in",    "def",    "return", "\n", "    ",
      "\t", "1",      "2.5",  "'s'",   "\"\"\"", "None",   "@",  "\\\n",
      "#c", "lambda", "elif", "while", "and",    "is",     "*",  ";",
      "1e", "0x",     "'",    "f(a=1)"};
  for (int i = 0; i < 3000; ++i) {
    std::string s;
    int n = std::uniform_int_distribution<int>(0, 40)(rng);
    for (int k = 0; k < n; ++k)
      s += pieces[std::uniform_int_distribution<int>(0, std::size(pieces) -
                                                            1)(rng)];
    check(s);
  }
  std::string kernel = kMatmul;
  for (int i = 0; i < 1000; ++i) {
    std::string s = kernel;
    int edits = 1 + i % 4;
    for (int e = 0; e < edits; ++e) {
      size_t at = std::uniform_int_distribution<size_t>(0, s.size() - 1)(rng);
      switch (rng() % 3) {
      case 0:
        s.erase(at, 1);
        break;
      case 1:
        s.insert(at, 1, "()[]:,\n \t'\"#\\x=+"[rng() % 17]);
        break;
      default:
        s[at] = char(byte(rng));
      }
    }
    check(s);
  }
}
