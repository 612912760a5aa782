//===- Parser.cpp - Recursive descent parser for the kernel subset --------===//
//
// Follows Python 3.12's grammar (Grammar/python.gram): every statement and
// expression of the language, one function per precedence level, lowest
// first:
//   lambda / test (ternary) < or < and < not < comparison < | < ^ < & <
//   shifts < + - < * @ / // % < unary + - ~ < ** < await < trailers (call,
//   [], .) < atom
// Unary minus binds looser than `**` (-2**2 == -(2**2)) and `**` is right
// associative with a unary allowed on its right (2**-1). The soft keywords
// `match`, `case`, `type` and `_` are names except where they start their
// statement (decided by looking ahead over the tokens, not by backtracking).
// The errors CPython reports when it compiles (not only parses) a module
// are reported here too: 'return'/'yield'/'await' outside a function,
// 'break' outside a loop, too many statically nested blocks.
//
// Every recursive production that can nest without bound goes through a
// DepthGuard, so hostile input ends with "nesting too deep", never with a
// stack overflow. Binary operator chains, trailers and elif chains are
// loops, not recursion.
//
//===----------------------------------------------------------------------===//

#include "txl/Frontend/Parser.h"
#include "txl/Frontend/Lexer.h"

#include "llvm/Support/Casting.h"

#include <cstring>
#include <set>

using llvm::dyn_cast;
using llvm::isa;

namespace txl {
namespace {

using TK = Token::Kind;

/// CPython's limit on statically nested blocks (loops, try, with) in one
/// function body (CO_MAXBLOCKS).
constexpr int kMaxStaticBlocks = 20;

class Parser {
public:
  Parser(const SourceFile &file, std::vector<Token> tokens,
         std::unique_ptr<CompileError> lexError)
      : file(file), diag(file), toks(std::move(tokens)),
        lexError(std::move(lexError)) {}

  std::unique_ptr<Module> parseFile();

private:
  // Token access. The token vector always ends with EndOfFile, and
  // advance() never moves past it. Reaching the end of a token stream cut
  // short by a lexical error reports that error.
  const Token &tok() const {
    if (lexError && idx + 1 == toks.size())
      throw *lexError;
    return toks[idx];
  }
  const Token &peekTok(size_t n = 1) const {
    return toks[std::min(idx + n, toks.size() - 1)];
  }
  const Token &advance() {
    const Token &t = toks[idx];
    if (idx + 1 < toks.size())
      ++idx;
    return t;
  }
  bool isOp(const char *s) const { return tok().isOp(s); }
  bool isKw(const char *s) const { return tok().isKeyword(s); }
  bool isSoftKw(const char *s) const {
    return tok().kind == TK::Name && tok().text == s;
  }
  bool acceptOp(const char *s) {
    if (!isOp(s))
      return false;
    advance();
    return true;
  }
  bool acceptKw(const char *s) {
    if (!isKw(s))
      return false;
    advance();
    return true;
  }
  SourceLoc expectOp(const char *s);
  void expectKw(const char *s, const char *context);
  std::string expectName(const char *what);
  [[noreturn]] void fail(SourceLoc loc, std::string msg) {
    diag.fail(loc, std::move(msg));
  }
  [[noreturn]] void failExpected(const std::string &what) {
    fail(tok().loc, "expected " + what + ", got " + tok().describe());
  }
  bool atStmtEnd() const {
    return tok().kind == TK::Newline || tok().kind == TK::EndOfFile ||
           isOp(";");
  }
  bool canStartExpr() const;
  size_t matchingClose(size_t open) const;
  bool lineEndsWithColon() const;

  /// Counts nesting; throws "nesting too deep" past kMaxNestingDepth.
  struct DepthGuard {
    DepthGuard(Parser &p, SourceLoc loc) : p(p) {
      if (++p.depth > kMaxNestingDepth)
        p.fail(loc, "nesting too deep (more than " +
                        std::to_string(kMaxNestingDepth) + " levels)");
      p.addTreeDepth(loc);
    }
    ~DepthGuard() {
      --p.depth;
      --p.treeDepth;
    }
    Parser &p;
  };
  /// One link of a chain read in a loop makes the tree one level deeper
  /// (see kMaxTreeDepth); the guard gives the levels back when the chain
  /// ends.
  struct ChainGuard {
    explicit ChainGuard(Parser &p) : p(p) {}
    void link(SourceLoc loc) {
      ++links;
      p.addTreeDepth(loc);
    }
    ~ChainGuard() { p.treeDepth -= links; }
    Parser &p;
    int links = 0;
  };
  void addTreeDepth(SourceLoc loc) {
    if (++treeDepth > kMaxTreeDepth)
      fail(loc, "nesting too deep (a chain of more than " +
                    std::to_string(kMaxTreeDepth) +
                    " operators, calls, subscripts or elifs)");
  }

  /// What the enclosing code is, for the checks CPython makes when it
  /// compiles: a def/lambda/class body starts a fresh one.
  struct Context {
    bool inFunction = false;
    bool isAsync = false;
    int loops = 0;
    int blocks = 0; // statically nested blocks (loops, try, with)
  };
  /// Enters `n` static blocks for the statement at `loc`; restores on exit.
  struct BlockGuard {
    BlockGuard(Parser &p, SourceLoc loc, int n) : p(p), n(n) {
      if (p.ctx.blocks + n > kMaxStaticBlocks)
        p.fail(loc, "too many statically nested blocks");
      p.ctx.blocks += n;
    }
    ~BlockGuard() { p.ctx.blocks -= n; }
    Parser &p;
    int n;
  };

  // Statements.
  void parseStatement(StmtList &out);
  void parseSimpleStatementLine(StmtList &out);
  StmtPtr parseSmallStatement();
  StmtList parseSuite(const std::string &what, SourceLoc header);
  StmtList parseBody(const std::string &what, SourceLoc header,
                     const Context &inner);
  StmtPtr parseDecorated();
  StmtPtr parseFunctionDef(ExprList decorators);
  StmtPtr parseClassDef(ExprList decorators);
  void parseParameters(Parameters &p, const char *close, bool annotations);
  Arg parseParameter(bool annotations, bool starAnnotation);
  std::vector<TypeParam> parseTypeParams();
  StmtPtr parseIf();
  StmtPtr parseFor(SourceLoc asyncLoc);
  StmtPtr parseWhile();
  StmtPtr parseWith(SourceLoc asyncLoc);
  WithItem parseWithItem(bool inParens);
  StmtPtr parseTry();
  StmtPtr parseRaise();
  StmtPtr parseDelete();
  StmtPtr parseMatch();
  StmtPtr parseTypeAlias();
  StmtPtr parseImport();
  StmtPtr parseImportFrom();
  StmtPtr parseGlobal();
  StmtPtr parseReturn();
  StmtPtr parseExpressionStatement();
  ExprPtr parseAssignValue();
  std::string parseDottedName();
  void validateTarget(const Expr *e);
  void validateAugTarget(const Expr *e);
  void validateDelTarget(const Expr *e);

  // Patterns (match statements).
  Pattern parseCasePatterns();
  Pattern parseMaybeStarPattern();
  Pattern parsePattern();
  Pattern parseClosedPattern();
  Pattern parseSequencePattern(SourceLoc loc, const char *close);
  Pattern parseMappingPattern();
  void parseClassPatternArgs(Pattern &p);
  ExprPtr parseLiteralPatternExpr();
  ExprPtr parseDottedNameExpr();

  // Expressions.
  ExprPtr parseTestListStarExpr();
  ExprPtr parseStarNamedExprs(SourceLoc loc, ExprPtr first);
  ExprPtr parseTargetList();
  ExprPtr parseTestOrStar();
  ExprPtr parseStarOrBitOr();
  ExprPtr parseStarOrNamedExpr();
  ExprPtr parseNamedExprTest();
  ExprPtr parseTest();
  ExprPtr parseLambda();
  ExprPtr parseYield();
  ExprPtr parseOrTest();
  ExprPtr parseAndTest();
  ExprPtr parseNotTest();
  ExprPtr parseComparison();
  ExprPtr parseBinary(int level);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parseAwait();
  ExprPtr parseAtomExpr();
  ExprPtr parseAtom();
  ExprPtr parseStrings();
  void parseFStringParts(ExprList &values, std::string &pending,
                         SourceLoc &pendingLoc, bool inSpec);
  void parseReplacementField(ExprList &values, std::string &pending,
                             SourceLoc &pendingLoc);
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  ExprPtr parseBraceDisplay();
  ExprPtr parseCall(ExprPtr func);
  void parseArguments(ExprList &args, std::vector<Keyword> &keywords);
  ExprPtr parseSubscript(ExprPtr value);
  ExprPtr parseSubscriptItem();
  std::vector<Comprehension> parseComprehensionClauses();
  ExprPtr parseComprehension(ExprPtr elt, SourceLoc loc, bool isGenerator);

  const SourceFile &file;
  DiagnosticEngine diag;
  std::vector<Token> toks;
  std::unique_ptr<CompileError> lexError;
  size_t idx = 0;
  int depth = 0;
  int treeDepth = 0; // depth plus the links of the chains being read
  Context ctx;
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

SourceLoc Parser::expectOp(const char *s) {
  if (!isOp(s))
    failExpected(std::string("'") + s + "'");
  return advance().loc;
}

void Parser::expectKw(const char *s, const char *context) {
  if (!isKw(s))
    failExpected(std::string("'") + s + "'" + context);
  advance();
}

std::string Parser::expectName(const char *what) {
  if (tok().kind != TK::Name)
    failExpected(what);
  return advance().text;
}

bool Parser::canStartExpr() const {
  const Token &t = tok();
  switch (t.kind) {
  case TK::Name:
  case TK::Int:
  case TK::Float:
  case TK::Imaginary:
  case TK::String:
  case TK::FStringStart:
    return true;
  case TK::Keyword:
    return t.text == "not" || t.text == "None" || t.text == "True" ||
           t.text == "False" || t.text == "lambda" || t.text == "await";
  case TK::Op:
    for (const char *op : {"(", "[", "{", "-", "+", "~", "*", "..."})
      if (t.text == op)
        return true;
    return false;
  default:
    return false;
  }
}

static bool isOpenBracket(const Token &t) {
  return t.isOp("(") || t.isOp("[") || t.isOp("{");
}
static bool isCloseBracket(const Token &t) {
  return t.isOp(")") || t.isOp("]") || t.isOp("}");
}

// Index of the bracket closing the one at `open` (the lexer guarantees
// brackets balance within a logical line).
size_t Parser::matchingClose(size_t open) const {
  int level = 0;
  for (size_t i = open; i < toks.size(); ++i) {
    if (isOpenBracket(toks[i]))
      ++level;
    else if (isCloseBracket(toks[i]) && --level == 0)
      return i;
  }
  return toks.size() - 1;
}

// Does the logical line from the current token end with a `:` outside
// brackets? That tells `match x:` (a statement) from `match(x)` and
// `match = 1` (a name).
bool Parser::lineEndsWithColon() const {
  int level = 0;
  for (size_t i = idx; i + 1 < toks.size(); ++i) {
    const Token &t = toks[i];
    if (isOpenBracket(t))
      ++level;
    else if (isCloseBracket(t))
      --level;
    if (level == 0 && t.isOp(":") &&
        (toks[i + 1].kind == TK::Newline || toks[i + 1].kind == TK::EndOfFile))
      return true;
    if (t.kind == TK::Newline || t.kind == TK::EndOfFile)
      return false;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseFile() {
  auto module = std::make_unique<Module>();
  module->fileName = file.getName();
  while (tok().kind != TK::EndOfFile) {
    if (tok().kind == TK::Newline) {
      advance();
      continue;
    }
    parseStatement(module->body);
  }
  return module;
}

void Parser::parseStatement(StmtList &out) {
  const Token &t = tok();
  if (t.kind == TK::Indent)
    fail(t.loc, "unexpected indent");
  if (t.kind == TK::Dedent)
    fail(t.loc, "unexpected dedent");
  if (t.isOp("@"))
    return out.push_back(parseDecorated());
  if (t.kind == TK::Keyword) {
    if (t.text == "def")
      return out.push_back(parseFunctionDef({}));
    if (t.text == "class")
      return out.push_back(parseClassDef({}));
    if (t.text == "if")
      return out.push_back(parseIf());
    if (t.text == "for")
      return out.push_back(parseFor({}));
    if (t.text == "while")
      return out.push_back(parseWhile());
    if (t.text == "with")
      return out.push_back(parseWith({}));
    if (t.text == "try")
      return out.push_back(parseTry());
    if (t.text == "async") {
      const Token &next = peekTok();
      if (next.isKeyword("def"))
        return out.push_back(parseFunctionDef({}));
      SourceLoc asyncLoc = advance().loc;
      if (isKw("for"))
        return out.push_back(parseFor(asyncLoc));
      if (isKw("with"))
        return out.push_back(parseWith(asyncLoc));
      failExpected("'def', 'for' or 'with' after 'async'");
    }
  }
  if (isSoftKw("match") && lineEndsWithColon()) {
    const Token &next = peekTok();
    if (next.kind != TK::Op || next.text == "(" || next.text == "[" ||
        next.text == "{" || next.text == "-" || next.text == "+" ||
        next.text == "~" || next.text == "*" || next.text == "...")
      return out.push_back(parseMatch());
  }
  parseSimpleStatementLine(out);
}

void Parser::parseSimpleStatementLine(StmtList &out) {
  while (true) {
    out.push_back(parseSmallStatement());
    if (!acceptOp(";"))
      break;
    if (tok().kind == TK::Newline || tok().kind == TK::EndOfFile)
      break;
  }
  if (tok().kind == TK::EndOfFile)
    return;
  if (tok().kind != TK::Newline)
    fail(tok().loc, "invalid syntax: unexpected " + tok().describe());
  advance();
}

StmtPtr Parser::parseSmallStatement() {
  const Token &t = tok();
  SourceLoc loc = t.loc;
  if (t.kind == TK::Keyword) {
    const std::string &kw = t.text;
    if (kw == "pass") {
      advance();
      return std::make_unique<PassStmt>(loc);
    }
    if (kw == "break" || kw == "continue") {
      if (ctx.loops == 0)
        fail(loc, "'" + kw + "' outside loop");
      bool isBreak = kw == "break";
      advance();
      if (isBreak)
        return std::make_unique<BreakStmt>(loc);
      return std::make_unique<ContinueStmt>(loc);
    }
    if (kw == "return")
      return parseReturn();
    if (kw == "import")
      return parseImport();
    if (kw == "from")
      return parseImportFrom();
    if (kw == "global" || kw == "nonlocal")
      return parseGlobal();
    if (kw == "raise")
      return parseRaise();
    if (kw == "del")
      return parseDelete();
    if (kw == "assert") {
      advance();
      ExprPtr test = parseTest();
      ExprPtr msg;
      if (acceptOp(","))
        msg = parseTest();
      return std::make_unique<AssertStmt>(loc, std::move(test), std::move(msg));
    }
  }
  if (isSoftKw("type") && peekTok().kind == TK::Name)
    return parseTypeAlias();
  return parseExpressionStatement();
}

StmtPtr Parser::parseReturn() {
  SourceLoc loc = advance().loc;
  if (!ctx.inFunction)
    fail(loc, "'return' outside function");
  ExprPtr value;
  if (!atStmtEnd())
    value = parseTestListStarExpr();
  return std::make_unique<ReturnStmt>(loc, std::move(value));
}

StmtPtr Parser::parseRaise() {
  SourceLoc loc = advance().loc;
  ExprPtr exc, cause;
  if (!atStmtEnd()) {
    exc = parseTest();
    if (acceptKw("from"))
      cause = parseTest();
  }
  return std::make_unique<RaiseStmt>(loc, std::move(exc), std::move(cause));
}

StmtPtr Parser::parseDelete() {
  SourceLoc loc = advance().loc;
  ExprList targets;
  do {
    if (!targets.empty() && !canStartExpr())
      break; // trailing comma
    targets.push_back(parseStarOrBitOr());
  } while (acceptOp(","));
  for (const ExprPtr &e : targets)
    validateDelTarget(e.get());
  return std::make_unique<DeleteStmt>(loc, std::move(targets));
}

StmtPtr Parser::parseTypeAlias() {
  auto s = std::make_unique<TypeAliasStmt>(advance().loc);
  s->name = expectName("type alias name");
  if (isOp("["))
    s->typeParams = parseTypeParams();
  expectOp("=");
  s->value = parseTest();
  return s;
}

static bool isAugAssignOp(const Token &t, BinOpKind &op) {
  static const struct {
    const char *text;
    BinOpKind op;
  } table[] = {{"+=", BinOpKind::Add},       {"-=", BinOpKind::Sub},
               {"*=", BinOpKind::Mul},       {"/=", BinOpKind::Div},
               {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
               {"**=", BinOpKind::Pow},      {"@=", BinOpKind::MatMul},
               {"<<=", BinOpKind::LShift},   {">>=", BinOpKind::RShift},
               {"&=", BinOpKind::BitAnd},    {"|=", BinOpKind::BitOr},
               {"^=", BinOpKind::BitXor}};
  if (t.kind != TK::Op)
    return false;
  for (const auto &e : table)
    if (t.text == e.text) {
      op = e.op;
      return true;
    }
  return false;
}

// The right-hand side of `=`, `op=` or an annotation: a yield expression
// or a (starred) expression list.
ExprPtr Parser::parseAssignValue() {
  if (isKw("yield"))
    return parseYield();
  return parseTestListStarExpr();
}

StmtPtr Parser::parseExpressionStatement() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseAssignValue();
  if (isOp(":")) {
    if (isa<TupleExpr>(first.get()) || isa<ListExpr>(first.get()))
      fail(first->loc, "only single target (not tuple) can be annotated");
    validateAugTarget(first.get());
    advance();
    ExprPtr annotation = parseTest();
    ExprPtr value;
    if (acceptOp("="))
      value = parseAssignValue();
    return std::make_unique<AnnAssignStmt>(
        loc, std::move(first), std::move(annotation), std::move(value));
  }
  BinOpKind op;
  if (isAugAssignOp(tok(), op)) {
    validateAugTarget(first.get());
    SourceLoc opLoc = advance().loc;
    ExprPtr value = parseAssignValue();
    return std::make_unique<AugAssignStmt>(loc, std::move(first), op,
                                           std::move(value), opLoc);
  }
  if (!isOp("="))
    return std::make_unique<ExprStmt>(loc, std::move(first));
  ExprList targets;
  targets.push_back(std::move(first));
  while (acceptOp("="))
    targets.push_back(parseAssignValue());
  ExprPtr value = std::move(targets.back());
  targets.pop_back();
  for (const ExprPtr &t : targets)
    validateTarget(t.get());
  return std::make_unique<AssignStmt>(loc, std::move(targets),
                                      std::move(value));
}

// What Python calls each non-assignable expression in its message.
static std::string describeForAssign(const Expr *e) {
  switch (e->getKind()) {
  case Expr::Kind::Constant: {
    auto *c = llvm::cast<ConstantExpr>(e);
    if (c->isNone())
      return "None";
    if (c->isBool())
      return c->boolValue ? "True" : "False";
    if (c->valueKind == ConstantExpr::ValueKind::Ellipsis)
      return "ellipsis";
    return "literal";
  }
  case Expr::Kind::Call:
    return "function call";
  case Expr::Kind::Compare:
    return "comparison";
  case Expr::Kind::IfExp:
    return "conditional expression";
  case Expr::Kind::Dict:
    return "dict literal";
  case Expr::Kind::Set:
    return "set display";
  case Expr::Kind::ListComp:
    return llvm::cast<ListCompExpr>(e)->describe();
  case Expr::Kind::Slice:
    return "slice";
  case Expr::Kind::Lambda:
    return "lambda";
  case Expr::Kind::NamedExpr:
    return "named expression";
  case Expr::Kind::JoinedStr:
    return "f-string expression";
  case Expr::Kind::HostOnly:
    return llvm::cast<HostOnlyExpr>(e)->construct;
  default:
    return "expression";
  }
}

void Parser::validateTarget(const Expr *e) {
  switch (e->getKind()) {
  case Expr::Kind::Name:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript:
    return;
  case Expr::Kind::Starred:
    return validateTarget(llvm::cast<StarredExpr>(e)->value.get());
  case Expr::Kind::Tuple:
    for (const ExprPtr &elt : llvm::cast<TupleExpr>(e)->elts)
      validateTarget(elt.get());
    return;
  case Expr::Kind::List:
    for (const ExprPtr &elt : llvm::cast<ListExpr>(e)->elts)
      validateTarget(elt.get());
    return;
  default:
    fail(e->loc, "cannot assign to " + describeForAssign(e));
  }
}

void Parser::validateAugTarget(const Expr *e) {
  if (isa<NameExpr>(e) || isa<AttributeExpr>(e) || isa<SubscriptExpr>(e))
    return;
  if (isa<TupleExpr>(e) || isa<ListExpr>(e) || isa<StarredExpr>(e))
    fail(e->loc, "illegal target for augmented or annotated assignment");
  fail(e->loc, "cannot assign to " + describeForAssign(e));
}

void Parser::validateDelTarget(const Expr *e) {
  switch (e->getKind()) {
  case Expr::Kind::Name:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript:
    return;
  case Expr::Kind::Tuple:
    for (const ExprPtr &elt : llvm::cast<TupleExpr>(e)->elts)
      validateDelTarget(elt.get());
    return;
  case Expr::Kind::List:
    for (const ExprPtr &elt : llvm::cast<ListExpr>(e)->elts)
      validateDelTarget(elt.get());
    return;
  case Expr::Kind::Starred:
    fail(e->loc, "cannot delete starred");
  default:
    fail(e->loc, "cannot delete " + describeForAssign(e));
  }
}

StmtList Parser::parseSuite(const std::string &what, SourceLoc header) {
  DepthGuard guard(*this, tok().loc);
  StmtList body;
  if (tok().kind != TK::Newline) { // `if x: return y` on one line
    if (tok().kind == TK::EndOfFile)
      failExpected("a statement after " + what);
    parseSimpleStatementLine(body);
    return body;
  }
  advance();
  if (tok().kind != TK::Indent)
    fail(tok().loc, "expected an indented block after " + what + " on line " +
                        std::to_string(header.line));
  advance();
  while (tok().kind != TK::Dedent && tok().kind != TK::EndOfFile)
    parseStatement(body);
  advance(); // the Dedent
  return body;
}

// The body of a def or class: a fresh context (no enclosing loop or
// blocks), restored afterwards.
StmtList Parser::parseBody(const std::string &what, SourceLoc header,
                           const Context &inner) {
  Context saved = ctx;
  ctx = inner;
  StmtList body = parseSuite(what, header);
  ctx = saved;
  return body;
}

StmtPtr Parser::parseDecorated() {
  ExprList decorators;
  while (isOp("@")) {
    advance();
    decorators.push_back(parseNamedExprTest());
    if (tok().kind != TK::Newline)
      failExpected("end of line after decorator");
    advance();
  }
  if (isKw("def") || (isKw("async") && peekTok().isKeyword("def")))
    return parseFunctionDef(std::move(decorators));
  if (isKw("class"))
    return parseClassDef(std::move(decorators));
  failExpected("'def' after decorator");
}

StmtPtr Parser::parseFunctionDef(ExprList decorators) {
  bool isAsync = acceptKw("async");
  SourceLoc loc = isAsync ? toks[idx - 1].loc : tok().loc;
  expectKw("def", "");
  auto f = std::make_unique<FunctionDefStmt>(loc);
  f->isAsync = isAsync;
  f->decorators = std::move(decorators);
  f->nameLoc = tok().loc;
  f->name = expectName("function name");
  if (isOp("["))
    f->typeParams = parseTypeParams();
  expectOp("(");
  parseParameters(*f, ")", /*annotations=*/true);
  expectOp(")");
  if (acceptOp("->"))
    f->returns = parseTest();
  expectOp(":");
  Context inner;
  inner.inFunction = true;
  inner.isAsync = isAsync;
  f->body = parseBody("function definition", f->loc, inner);
  return f;
}

StmtPtr Parser::parseClassDef(ExprList decorators) {
  auto c = std::make_unique<ClassDefStmt>(advance().loc);
  c->decorators = std::move(decorators);
  c->nameLoc = tok().loc;
  c->name = expectName("class name");
  if (isOp("["))
    c->typeParams = parseTypeParams();
  if (acceptOp("(")) {
    parseArguments(c->bases, c->keywords);
    expectOp(")");
  }
  expectOp(":");
  c->body = parseBody("class definition", c->loc, Context());
  return c;
}

// `[T, *Ts, **P, U: bound]` after a def, class or type alias name.
std::vector<TypeParam> Parser::parseTypeParams() {
  SourceLoc open = expectOp("[");
  std::vector<TypeParam> params;
  while (!isOp("]")) {
    TypeParam p;
    p.loc = tok().loc;
    if (acceptOp("*"))
      p.kind = TypeParam::Kind::TypeVarTuple;
    else if (acceptOp("**"))
      p.kind = TypeParam::Kind::ParamSpec;
    p.name = expectName("type parameter name");
    if (p.kind == TypeParam::Kind::TypeVar && acceptOp(":"))
      p.bound = parseTest();
    params.push_back(std::move(p));
    if (!acceptOp(","))
      break;
  }
  if (params.empty())
    fail(open, "type parameter list cannot be empty");
  expectOp("]");
  return params;
}

Arg Parser::parseParameter(bool annotations, bool starAnnotation) {
  Arg arg;
  arg.loc = tok().loc;
  arg.name = expectName("parameter name");
  if (annotations && acceptOp(":"))
    arg.annotation = starAnnotation ? parseTestOrStar() : parseTest();
  return arg;
}

// A parameter list up to `close` (")" for a def, ":" for a lambda), with
// Python's rules: `/` after some positional parameters, one `*` (bare or
// named) that must be followed by a keyword-only parameter when bare, `**`
// last, no positional parameter without a default after one with.
void Parser::parseParameters(Parameters &p, const char *close,
                             bool annotations) {
  bool sawDefault = false, sawStar = false, sawSlash = false;
  SourceLoc bareStar;
  std::set<std::string> names; // a set: 10^5 parameters stay fast
  auto add = [&](Arg arg, std::vector<Arg> *list,
                 std::unique_ptr<Arg> *single) {
    if (!names.insert(arg.name).second)
      fail(arg.loc, "duplicate parameter '" + arg.name + "'");
    if (list)
      list->push_back(std::move(arg));
    else
      *single = std::make_unique<Arg>(std::move(arg));
  };
  while (!isOp(close)) {
    SourceLoc loc = tok().loc;
    if (acceptOp("/")) {
      if (sawSlash)
        fail(loc, "/ may appear only once");
      if (sawStar)
        fail(loc, "/ must be ahead of *");
      if (p.args.empty())
        fail(loc, "at least one argument must precede /");
      sawSlash = true;
      p.posOnlyCount = p.args.size();
    } else if (acceptOp("**")) {
      add(parseParameter(annotations, false), nullptr, &p.kwarg);
      if (isOp("="))
        fail(tok().loc, "var-keyword argument cannot have default value");
      if (acceptOp(",") && !isOp(close))
        fail(tok().loc, "arguments cannot follow var-keyword argument");
      break;
    } else if (acceptOp("*")) {
      if (sawStar)
        fail(loc, "* argument may appear only once");
      sawStar = true;
      if (isOp(",") || isOp(close)) {
        bareStar = loc;
      } else {
        add(parseParameter(annotations, true), nullptr, &p.vararg);
        if (isOp("="))
          fail(tok().loc, "var-positional argument cannot have default "
                          "value");
      }
    } else {
      Arg arg = parseParameter(annotations, false);
      if (acceptOp("=")) {
        arg.defaultValue = parseTest();
        sawDefault |= !sawStar;
      } else if (sawDefault && !sawStar) {
        fail(arg.loc, "parameter without a default follows parameter with "
                      "a default");
      }
      add(std::move(arg), sawStar ? &p.kwOnlyArgs : &p.args, nullptr);
    }
    if (!acceptOp(","))
      break;
  }
  if (bareStar.isValid() && p.kwOnlyArgs.empty())
    fail(bareStar, "named arguments must follow bare *");
}

StmtPtr Parser::parseIf() {
  SourceLoc loc = advance().loc;
  ExprPtr test = parseNamedExprTest();
  expectOp(":");
  auto top = std::make_unique<IfStmt>(loc, std::move(test));
  top->body = parseSuite("'if' statement", loc);
  // elif chains are built in a loop (each elif nests in the previous orelse).
  IfStmt *tail = top.get();
  ChainGuard chain(*this);
  while (isKw("elif")) {
    SourceLoc elifLoc = advance().loc;
    chain.link(elifLoc);
    ExprPtr elifTest = parseNamedExprTest();
    expectOp(":");
    auto next = std::make_unique<IfStmt>(elifLoc, std::move(elifTest));
    next->isElif = true;
    next->body = parseSuite("'elif' statement", elifLoc);
    IfStmt *nextPtr = next.get();
    tail->orelse.push_back(std::move(next));
    tail = nextPtr;
  }
  if (isKw("else")) {
    SourceLoc elseLoc = advance().loc;
    expectOp(":");
    tail->orelse = parseSuite("'else' statement", elseLoc);
  }
  return top;
}

StmtPtr Parser::parseFor(SourceLoc asyncLoc) {
  SourceLoc loc = advance().loc;
  bool isAsync = asyncLoc.isValid();
  if (isAsync) {
    loc = asyncLoc;
    if (!ctx.isAsync)
      fail(loc, "'async for' outside async function");
  }
  ExprPtr target = parseTargetList();
  validateTarget(target.get());
  expectKw("in", " after 'for' target");
  ExprPtr iter = parseTestListStarExpr();
  expectOp(":");
  auto s = std::make_unique<ForStmt>(loc, std::move(target), std::move(iter));
  s->isAsync = isAsync;
  {
    BlockGuard blocks(*this, loc, 1);
    ++ctx.loops;
    s->body = parseSuite("'for' statement", loc);
    --ctx.loops;
  }
  if (isKw("else")) {
    s->elseLoc = advance().loc;
    expectOp(":");
    s->orelse = parseSuite("'else' statement", s->elseLoc);
  }
  return s;
}

StmtPtr Parser::parseWhile() {
  SourceLoc loc = advance().loc;
  ExprPtr test = parseNamedExprTest();
  expectOp(":");
  auto s = std::make_unique<WhileStmt>(loc, std::move(test));
  {
    BlockGuard blocks(*this, loc, 1);
    ++ctx.loops;
    s->body = parseSuite("'while' statement", loc);
    --ctx.loops;
  }
  if (isKw("else")) {
    s->elseLoc = advance().loc;
    expectOp(":");
    s->orelse = parseSuite("'else' statement", s->elseLoc);
  }
  return s;
}

// `expr [as target]`; in the parenthesised item list an item may also be
// a named expression (`with (a := f()):` means the same either way).
WithItem Parser::parseWithItem(bool inParens) {
  WithItem item;
  item.contextExpr = inParens ? parseNamedExprTest() : parseTest();
  if (acceptKw("as")) {
    item.optionalVars = parseStarOrBitOr();
    validateTarget(item.optionalVars.get());
  }
  return item;
}

StmtPtr Parser::parseWith(SourceLoc asyncLoc) {
  auto s = std::make_unique<WithStmt>(advance().loc);
  if (asyncLoc.isValid()) {
    s->loc = asyncLoc;
    s->isAsync = true;
    if (!ctx.isAsync)
      fail(asyncLoc, "'async with' outside async function");
  }
  // `with (a as b, c):` is a parenthesised item list when the `)` is
  // followed by the `:`; otherwise the parenthesis belongs to the first
  // item's expression (`with (a, b) as c:`, `with (yield x):`).
  if (isOp("(") && !peekTok().isKeyword("yield") &&
      toks[matchingClose(idx) + 1].isOp(":")) {
    advance();
    do {
      if (isOp(")") && !s->items.empty())
        break; // trailing comma
      s->items.push_back(parseWithItem(/*inParens=*/true));
    } while (acceptOp(","));
    expectOp(")");
  } else {
    do
      s->items.push_back(parseWithItem(/*inParens=*/false));
    while (acceptOp(","));
  }
  if (s->items.empty())
    failExpected("an expression");
  expectOp(":");
  BlockGuard blocks(*this, s->loc, int(s->items.size()));
  s->body = parseSuite("'with' statement", s->loc);
  return s;
}

StmtPtr Parser::parseTry() {
  auto s = std::make_unique<TryStmt>(advance().loc);
  expectOp(":");
  {
    BlockGuard blocks(*this, s->loc, 1);
    s->body = parseSuite("'try' statement", s->loc);
  }
  bool sawPlain = false, sawStar = false;
  while (isKw("except")) {
    ExceptHandler h;
    h.loc = advance().loc;
    bool star = acceptOp("*");
    (star ? sawStar : sawPlain) = true;
    if (sawStar && sawPlain)
      fail(h.loc, "cannot have both 'except' and 'except*' on the same "
                  "'try'");
    if (!s->handlers.empty() && !s->handlers.back().type)
      fail(s->handlers.back().loc, "default 'except:' must be last");
    if (!isOp(":")) {
      SourceLoc typeLoc = tok().loc;
      h.type = parseTest();
      if (isOp(","))
        fail(typeLoc, "multiple exception types must be parenthesized");
      if (acceptKw("as"))
        h.name = expectName("name after 'as'");
    } else if (star) {
      fail(tok().loc, "expected one or more exception types");
    }
    expectOp(":");
    BlockGuard blocks(*this, h.loc, 2);
    h.body = parseSuite("'except' statement", h.loc);
    s->handlers.push_back(std::move(h));
  }
  s->isStar = sawStar;
  if (isKw("else")) {
    SourceLoc elseLoc = advance().loc;
    if (s->handlers.empty())
      fail(elseLoc, "expected 'except' or 'finally' block");
    expectOp(":");
    s->orelse = parseSuite("'else' statement", elseLoc);
  }
  if (isKw("finally")) {
    SourceLoc finallyLoc = advance().loc;
    expectOp(":");
    BlockGuard blocks(*this, finallyLoc, 1);
    s->finalbody = parseSuite("'finally' statement", finallyLoc);
  }
  if (s->handlers.empty() && s->finalbody.empty())
    failExpected("'except' or 'finally' block");
  return s;
}

std::string Parser::parseDottedName() {
  std::string name = expectName("module name");
  while (acceptOp("."))
    name += "." + expectName("name after '.'");
  return name;
}

StmtPtr Parser::parseImport() {
  auto s = std::make_unique<ImportStmt>(advance().loc);
  do {
    ImportAlias alias;
    alias.loc = tok().loc;
    alias.name = parseDottedName();
    if (acceptKw("as"))
      alias.asname = expectName("name after 'as'");
    s->names.push_back(std::move(alias));
  } while (acceptOp(","));
  return s;
}

StmtPtr Parser::parseImportFrom() {
  auto s = std::make_unique<ImportFromStmt>(advance().loc);
  while (isOp(".") || isOp("..."))
    s->level += advance().text.size();
  if (s->level == 0 || tok().kind == TK::Name)
    s->module = parseDottedName();
  expectKw("import", " in 'from ... import'");
  if (isOp("*")) {
    s->names.push_back({advance().loc, "*", ""});
    return s;
  }
  bool paren = acceptOp("(");
  do {
    if (paren && isOp(")") && !s->names.empty())
      break; // trailing comma
    ImportAlias alias;
    alias.loc = tok().loc;
    alias.name = expectName("name to import");
    if (acceptKw("as"))
      alias.asname = expectName("name after 'as'");
    s->names.push_back(std::move(alias));
  } while (acceptOp(","));
  if (paren)
    expectOp(")");
  else if (!s->names.empty() && toks[idx - 1].isOp(","))
    fail(toks[idx - 1].loc, "trailing comma not allowed without surrounding "
                            "parentheses");
  return s;
}

StmtPtr Parser::parseGlobal() {
  const Token &kw = advance();
  SourceLoc loc = kw.loc;
  bool isNonlocal = kw.text == "nonlocal";
  if (isNonlocal && !ctx.inFunction)
    fail(loc, "nonlocal declaration not allowed at module level");
  std::vector<std::string> names;
  do
    names.push_back(expectName("name"));
  while (acceptOp(","));
  return std::make_unique<GlobalStmt>(loc, std::move(names), isNonlocal);
}

//===----------------------------------------------------------------------===//
// Match statements and patterns
//===----------------------------------------------------------------------===//

StmtPtr Parser::parseMatch() {
  SourceLoc loc = advance().loc;
  SourceLoc subjectLoc = tok().loc;
  ExprPtr subject = parseStarOrNamedExpr();
  if (isOp(","))
    subject = parseStarNamedExprs(subjectLoc, std::move(subject));
  else if (isa<StarredExpr>(subject.get()))
    fail(subject->loc, "cannot use starred expression here");
  expectOp(":");
  auto s = std::make_unique<MatchStmt>(loc, std::move(subject));
  DepthGuard guard(*this, loc);
  if (tok().kind != TK::Newline)
    failExpected("end of line after 'match' statement");
  advance();
  if (tok().kind != TK::Indent)
    fail(tok().loc, "expected an indented block after 'match' statement on "
                    "line " +
                        std::to_string(loc.line));
  advance();
  while (tok().kind != TK::Dedent && tok().kind != TK::EndOfFile) {
    if (!isSoftKw("case"))
      failExpected("'case'");
    MatchCase c;
    c.loc = advance().loc;
    c.pattern = parseCasePatterns();
    if (acceptKw("if"))
      c.guard = parseNamedExprTest();
    expectOp(":");
    c.body = parseSuite("'case' statement", c.loc);
    s->cases.push_back(std::move(c));
  }
  advance(); // the Dedent
  return s;
}

// The pattern of a `case`: one pattern, or an open sequence `a, *rest`.
Pattern Parser::parseCasePatterns() {
  SourceLoc loc = tok().loc;
  Pattern first = parseMaybeStarPattern();
  if (!isOp(",")) {
    if (first.kind == Pattern::Kind::Star)
      fail(first.loc, "can't use starred pattern here");
    return first;
  }
  Pattern seq;
  seq.kind = Pattern::Kind::Sequence;
  seq.loc = loc;
  seq.patterns.push_back(std::move(first));
  while (acceptOp(",") && !isOp(":") && !isKw("if"))
    seq.patterns.push_back(parseMaybeStarPattern());
  return seq;
}

Pattern Parser::parseMaybeStarPattern() {
  if (!isOp("*"))
    return parsePattern();
  Pattern p;
  p.kind = Pattern::Kind::Star;
  p.loc = advance().loc;
  p.name = expectName("name after '*' in pattern");
  if (p.name == "_")
    p.name.clear();
  return p;
}

// or_pattern ['as' NAME].
Pattern Parser::parsePattern() {
  DepthGuard guard(*this, tok().loc);
  SourceLoc loc = tok().loc;
  Pattern p = parseClosedPattern();
  if (isOp("|")) {
    Pattern alt;
    alt.kind = Pattern::Kind::Or;
    alt.loc = loc;
    alt.patterns.push_back(std::move(p));
    while (acceptOp("|"))
      alt.patterns.push_back(parseClosedPattern());
    p = std::move(alt);
  }
  if (!acceptKw("as"))
    return p;
  Pattern as;
  as.kind = Pattern::Kind::As;
  as.loc = loc;
  SourceLoc nameLoc = tok().loc;
  as.name = expectName("name after 'as' in pattern");
  if (as.name == "_")
    fail(nameLoc, "cannot use '_' as a target");
  as.patterns.push_back(std::move(p));
  return as;
}

// A number, a negative number or a complex `a + bj`, a string (not an
// f-string), as a literal pattern or mapping key allows.
ExprPtr Parser::parseLiteralPatternExpr() {
  SourceLoc loc = tok().loc;
  if (tok().kind == TK::String || tok().kind == TK::FStringStart) {
    ExprPtr e = parseStrings();
    if (isa<JoinedStrExpr>(e.get()))
      fail(loc, "patterns may only match literals and attribute lookups");
    return e;
  }
  bool neg = acceptOp("-");
  if (tok().kind != TK::Int && tok().kind != TK::Float &&
      tok().kind != TK::Imaginary)
    failExpected("a number in pattern");
  bool realPart = tok().kind != TK::Imaginary;
  ExprPtr e = parseAtom();
  if (neg)
    e = std::make_unique<UnaryOpExpr>(loc, UnaryOpKind::Neg, std::move(e));
  if (realPart && (isOp("+") || isOp("-"))) {
    bool plus = isOp("+");
    SourceLoc opLoc = advance().loc;
    if (tok().kind != TK::Imaginary)
      fail(tok().loc, "imaginary number required in complex literal");
    e = std::make_unique<BinOpExpr>(loc, plus ? BinOpKind::Add : BinOpKind::Sub,
                                    std::move(e), parseAtom(), opLoc);
  }
  return e;
}

ExprPtr Parser::parseDottedNameExpr() {
  SourceLoc loc = tok().loc;
  ExprPtr e = std::make_unique<NameExpr>(loc, expectName("a name"));
  ChainGuard chain(*this);
  while (isOp(".")) {
    chain.link(advance().loc);
    SourceLoc attrLoc = tok().loc;
    std::string attr = expectName("attribute name after '.'");
    e = std::make_unique<AttributeExpr>(loc, std::move(e), std::move(attr),
                                        attrLoc);
  }
  return e;
}

Pattern Parser::parseClosedPattern() {
  DepthGuard guard(*this, tok().loc);
  Pattern p;
  p.loc = tok().loc;
  const Token &t = tok();
  if (t.isKeyword("None") || t.isKeyword("True") || t.isKeyword("False")) {
    p.kind = Pattern::Kind::Singleton;
    p.value = parseAtom();
    return p;
  }
  if (t.kind == TK::Int || t.kind == TK::Float || t.kind == TK::Imaginary ||
      t.kind == TK::String || t.kind == TK::FStringStart || t.isOp("-")) {
    p.kind = Pattern::Kind::Value;
    p.value = parseLiteralPatternExpr();
    return p;
  }
  if (t.isOp("("))
    return parseSequencePattern(advance().loc, ")");
  if (t.isOp("["))
    return parseSequencePattern(advance().loc, "]");
  if (t.isOp("{"))
    return parseMappingPattern();
  if (t.kind != TK::Name)
    failExpected("a pattern");
  bool dotted = peekTok().isOp(".");
  if (t.text == "_" && !dotted && !peekTok().isOp("(")) {
    advance();
    p.kind = Pattern::Kind::Wildcard;
    return p;
  }
  if (!dotted && !peekTok().isOp("(")) {
    p.kind = Pattern::Kind::Capture;
    p.name = advance().text;
    return p;
  }
  p.value = parseDottedNameExpr();
  if (!isOp("(")) {
    p.kind = Pattern::Kind::Value;
    return p;
  }
  p.kind = Pattern::Kind::Class;
  advance();
  parseClassPatternArgs(p);
  expectOp(")");
  return p;
}

// `(p, ...)` / `[p, ...]`; a single parenthesised pattern without a comma
// is just that pattern (a group).
Pattern Parser::parseSequencePattern(SourceLoc loc, const char *close) {
  Pattern seq;
  seq.kind = Pattern::Kind::Sequence;
  seq.loc = loc;
  bool sawComma = false;
  while (!isOp(close)) {
    seq.patterns.push_back(parseMaybeStarPattern());
    if (!acceptOp(","))
      break;
    sawComma = true;
  }
  expectOp(close);
  if (std::strcmp(close, ")") == 0 && seq.patterns.size() == 1 && !sawComma) {
    if (seq.patterns[0].kind == Pattern::Kind::Star)
      fail(seq.patterns[0].loc, "can't use starred pattern here");
    Pattern group = std::move(seq.patterns[0]);
    return group;
  }
  return seq;
}

Pattern Parser::parseMappingPattern() {
  Pattern m;
  m.kind = Pattern::Kind::Mapping;
  m.loc = advance().loc;
  while (!isOp("}")) {
    if (acceptOp("**")) {
      m.name = expectName("name after '**' in pattern");
      acceptOp(",");
      break;
    }
    const Token &t = tok();
    if (t.isKeyword("None") || t.isKeyword("True") || t.isKeyword("False"))
      m.keys.push_back(parseAtom());
    else if (t.kind == TK::Name)
      m.keys.push_back(parseDottedNameExpr());
    else
      m.keys.push_back(parseLiteralPatternExpr());
    expectOp(":");
    m.patterns.push_back(parsePattern());
    if (!acceptOp(","))
      break;
  }
  expectOp("}");
  return m;
}

void Parser::parseClassPatternArgs(Pattern &p) {
  while (!isOp(")")) {
    if (tok().kind == TK::Name && peekTok().isOp("=")) {
      p.kwdNames.push_back(advance().text);
      advance();
      p.kwdPatterns.push_back(parsePattern());
    } else {
      SourceLoc loc = tok().loc;
      Pattern sub = parsePattern();
      if (!p.kwdNames.empty())
        fail(loc, "positional patterns follow keyword patterns");
      p.patterns.push_back(std::move(sub));
    }
    if (!acceptOp(","))
      break;
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

// `a, *b, c` as an expression statement, assignment side or return value:
// one element stays itself, several (or a trailing comma) make a Tuple.
ExprPtr Parser::parseTestListStarExpr() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseTestOrStar();
  if (!isOp(",")) {
    // `*a` alone is no value (`*a,` is a tuple).
    if (isa<StarredExpr>(first.get()))
      fail(first->loc, "can't use starred expression here");
    return first;
  }
  ExprList elts;
  elts.push_back(std::move(first));
  while (acceptOp(",") && canStartExpr())
    elts.push_back(parseTestOrStar());
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

// Targets of `for` and comprehensions: bitwise-or level, so that `in` is
// left for the caller.
ExprPtr Parser::parseTargetList() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseStarOrBitOr();
  if (!isOp(","))
    return first;
  ExprList elts;
  elts.push_back(std::move(first));
  while (acceptOp(",") && canStartExpr())
    elts.push_back(parseStarOrBitOr());
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

ExprPtr Parser::parseTestOrStar() {
  if (!isOp("*"))
    return parseTest();
  return parseStarOrBitOr();
}

// An element of a display, subscript or call: `*x` or a named expression.
ExprPtr Parser::parseStarOrNamedExpr() {
  if (!isOp("*"))
    return parseNamedExprTest();
  return parseStarOrBitOr();
}

// `first, e, ...` (the first already parsed) as a Tuple.
ExprPtr Parser::parseStarNamedExprs(SourceLoc loc, ExprPtr first) {
  ExprList elts;
  elts.push_back(std::move(first));
  while (acceptOp(",") && canStartExpr())
    elts.push_back(parseStarOrNamedExpr());
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

ExprPtr Parser::parseStarOrBitOr() {
  if (!isOp("*"))
    return parseBinary(0);
  SourceLoc loc = advance().loc;
  DepthGuard guard(*this, loc);
  return std::make_unique<StarredExpr>(loc, parseBinary(0));
}

// `name := value` or a plain test.
ExprPtr Parser::parseNamedExprTest() {
  if (tok().kind == TK::Name && peekTok().isOp(":=")) {
    SourceLoc loc = tok().loc;
    auto target = std::make_unique<NameExpr>(loc, advance().text);
    SourceLoc opLoc = advance().loc;
    DepthGuard guard(*this, opLoc);
    ExprPtr value = parseTest();
    return std::make_unique<NamedExpr>(loc, std::move(target), std::move(value),
                                       opLoc);
  }
  ExprPtr e = parseTest();
  if (isOp(":="))
    fail(e->loc, "cannot use assignment expressions with " +
                     describeForAssign(e.get()));
  return e;
}

ExprPtr Parser::parseLambda() {
  auto lambda = std::make_unique<LambdaExpr>(advance().loc);
  parseParameters(lambda->params, ":", /*annotations=*/false);
  expectOp(":");
  // A lambda body is a function body: `yield` is allowed, loops end.
  Context saved = ctx;
  ctx = Context();
  ctx.inFunction = true;
  lambda->body = parseTest();
  ctx = saved;
  return lambda;
}

// `yield`, `yield a, *b` or `yield from x`.
ExprPtr Parser::parseYield() {
  SourceLoc loc = advance().loc;
  if (!ctx.inFunction)
    fail(loc, "'yield' outside function");
  DepthGuard guard(*this, loc);
  ExprList operands;
  if (acceptKw("from")) {
    if (ctx.isAsync)
      fail(loc, "'yield from' inside async function");
    operands.push_back(parseTest());
    return std::make_unique<HostOnlyExpr>(loc, "yield from",
                                          std::move(operands));
  }
  operands.push_back(canStartExpr() ? parseTestListStarExpr() : nullptr);
  return std::make_unique<HostOnlyExpr>(loc, "yield", std::move(operands));
}

ExprPtr Parser::parseTest() {
  DepthGuard guard(*this, tok().loc);
  if (isKw("lambda"))
    return parseLambda();
  SourceLoc loc = tok().loc;
  ExprPtr body = parseOrTest();
  if (!acceptKw("if"))
    return body;
  ExprPtr test = parseOrTest();
  expectKw("else", " in conditional expression");
  ExprPtr orelse = parseTest();
  return std::make_unique<IfExpExpr>(loc, std::move(test), std::move(body),
                                     std::move(orelse));
}

ExprPtr Parser::parseOrTest() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseAndTest();
  if (!isKw("or"))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (acceptKw("or"))
    values.push_back(parseAndTest());
  return std::make_unique<BoolOpExpr>(loc, BoolOpKind::Or, std::move(values));
}

ExprPtr Parser::parseAndTest() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseNotTest();
  if (!isKw("and"))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (acceptKw("and"))
    values.push_back(parseNotTest());
  return std::make_unique<BoolOpExpr>(loc, BoolOpKind::And, std::move(values));
}

ExprPtr Parser::parseNotTest() {
  if (!isKw("not"))
    return parseComparison();
  SourceLoc loc = advance().loc;
  DepthGuard guard(*this, loc);
  return std::make_unique<UnaryOpExpr>(loc, UnaryOpKind::Not, parseNotTest());
}

// Reads one comparison operator (two tokens for `not in` / `is not`).
static bool readCompareOp(const Token &t, const Token &next, CmpOpKind &op,
                          int &numTokens) {
  numTokens = 1;
  if (t.kind == TK::Op) {
    static const struct {
      const char *text;
      CmpOpKind op;
    } table[] = {{"<", CmpOpKind::Lt},  {"<=", CmpOpKind::Le},
                 {">", CmpOpKind::Gt},  {">=", CmpOpKind::Ge},
                 {"==", CmpOpKind::Eq}, {"!=", CmpOpKind::NotEq}};
    for (const auto &e : table)
      if (t.text == e.text) {
        op = e.op;
        return true;
      }
    return false;
  }
  if (t.isKeyword("in")) {
    op = CmpOpKind::In;
    return true;
  }
  if (t.isKeyword("not") && next.isKeyword("in")) {
    op = CmpOpKind::NotIn;
    numTokens = 2;
    return true;
  }
  if (t.isKeyword("is")) {
    bool isNot = next.isKeyword("not");
    op = isNot ? CmpOpKind::IsNot : CmpOpKind::Is;
    numTokens = isNot ? 2 : 1;
    return true;
  }
  return false;
}

ExprPtr Parser::parseComparison() {
  SourceLoc loc = tok().loc;
  ExprPtr left = parseBinary(0);
  std::vector<CmpOpKind> ops;
  std::vector<SourceLoc> opLocs;
  ExprList comparators;
  CmpOpKind op;
  int n;
  while (readCompareOp(tok(), peekTok(), op, n)) {
    opLocs.push_back(tok().loc);
    ops.push_back(op);
    for (int i = 0; i < n; ++i)
      advance();
    comparators.push_back(parseBinary(0));
  }
  if (ops.empty())
    return left;
  return std::make_unique<CompareExpr>(loc, std::move(left), std::move(ops),
                                       std::move(comparators),
                                       std::move(opLocs));
}

namespace {
struct BinaryLevel {
  const char *ops[5];
  BinOpKind kinds[5];
};
} // namespace

// Binary operator levels from loosest to tightest; all left associative.
static const BinaryLevel kBinaryLevels[] = {
    {{"|"}, {BinOpKind::BitOr}},
    {{"^"}, {BinOpKind::BitXor}},
    {{"&"}, {BinOpKind::BitAnd}},
    {{"<<", ">>"}, {BinOpKind::LShift, BinOpKind::RShift}},
    {{"+", "-"}, {BinOpKind::Add, BinOpKind::Sub}},
    {{"*", "@", "/", "//", "%"},
     {BinOpKind::Mul, BinOpKind::MatMul, BinOpKind::Div, BinOpKind::FloorDiv,
      BinOpKind::Mod}},
};
static constexpr int kNumBinaryLevels =
    sizeof(kBinaryLevels) / sizeof(kBinaryLevels[0]);

static bool matchBinaryOp(const Token &t, int level, BinOpKind &op) {
  if (t.kind != TK::Op)
    return false;
  const BinaryLevel &l = kBinaryLevels[level];
  for (int i = 0; i < 5 && l.ops[i]; ++i)
    if (t.text == l.ops[i]) {
      op = l.kinds[i];
      return true;
    }
  return false;
}

ExprPtr Parser::parseBinary(int level) {
  if (level == kNumBinaryLevels)
    return parseFactor();
  SourceLoc loc = tok().loc;
  ExprPtr lhs = parseBinary(level + 1);
  BinOpKind op;
  ChainGuard chain(*this);
  while (matchBinaryOp(tok(), level, op)) {
    SourceLoc opLoc = advance().loc;
    chain.link(opLoc);
    ExprPtr rhs = parseBinary(level + 1);
    lhs = std::make_unique<BinOpExpr>(loc, op, std::move(lhs), std::move(rhs),
                                      opLoc);
  }
  return lhs;
}

ExprPtr Parser::parseFactor() {
  UnaryOpKind op;
  if (isOp("-"))
    op = UnaryOpKind::Neg;
  else if (isOp("+"))
    op = UnaryOpKind::Pos;
  else if (isOp("~"))
    op = UnaryOpKind::Invert;
  else
    return parsePower();
  SourceLoc loc = advance().loc;
  DepthGuard guard(*this, loc);
  return std::make_unique<UnaryOpExpr>(loc, op, parseFactor());
}

ExprPtr Parser::parseAwait() {
  SourceLoc loc = advance().loc;
  if (!ctx.inFunction)
    fail(loc, "'await' outside function");
  if (!ctx.isAsync)
    fail(loc, "'await' outside async function");
  DepthGuard guard(*this, loc);
  ExprList operands;
  operands.push_back(parseAtomExpr());
  return std::make_unique<HostOnlyExpr>(loc, "await", std::move(operands));
}

ExprPtr Parser::parsePower() {
  SourceLoc loc = tok().loc;
  ExprPtr base = isKw("await") ? parseAwait() : parseAtomExpr();
  if (!isOp("**"))
    return base;
  SourceLoc opLoc = advance().loc;
  DepthGuard guard(*this, opLoc);
  ExprPtr exponent = parseFactor(); // right associative, allows 2**-1
  return std::make_unique<BinOpExpr>(loc, BinOpKind::Pow, std::move(base),
                                     std::move(exponent), opLoc);
}

ExprPtr Parser::parseAtomExpr() {
  ExprPtr e = parseAtom();
  ChainGuard chain(*this);
  while (true) {
    if (isOp("(") || isOp("[") || isOp("."))
      chain.link(tok().loc);
    if (isOp("(")) {
      e = parseCall(std::move(e));
    } else if (isOp("[")) {
      e = parseSubscript(std::move(e));
    } else if (isOp(".")) {
      advance();
      SourceLoc attrLoc = tok().loc;
      std::string attr = expectName("attribute name after '.'");
      SourceLoc loc = e->loc;
      e = std::make_unique<AttributeExpr>(loc, std::move(e), std::move(attr),
                                          attrLoc);
    } else {
      return e;
    }
  }
}

ExprPtr Parser::parseAtom() {
  const Token &t = tok();
  SourceLoc loc = t.loc;
  switch (t.kind) {
  case TK::Name:
    return std::make_unique<NameExpr>(loc, advance().text);
  case TK::Int: {
    auto c = ConstantExpr::makeInt(loc, static_cast<int64_t>(t.intValue));
    c->isUnsigned64 = t.intValue > uint64_t(INT64_MAX);
    if (t.tooLarge) {
      c->isTooLarge = true;
      c->stringValue = t.spelling;
    }
    advance();
    return c;
  }
  case TK::Float:
    return ConstantExpr::makeFloat(loc, advance().floatValue);
  case TK::Imaginary: {
    auto c =
        std::make_unique<ConstantExpr>(loc, ConstantExpr::ValueKind::Complex);
    c->floatValue = advance().floatValue;
    return c;
  }
  case TK::String:
  case TK::FStringStart:
    return parseStrings();
  case TK::Keyword:
    if (t.text == "None" || t.text == "True" || t.text == "False") {
      std::string word = advance().text;
      if (word == "None")
        return ConstantExpr::makeNone(loc);
      return ConstantExpr::makeBool(loc, word == "True");
    }
    if (t.text == "yield")
      fail(loc, "a 'yield' expression must be parenthesized here");
    break;
  case TK::Op:
    if (t.text == "(")
      return parseParenthesized();
    if (t.text == "[")
      return parseListDisplay();
    if (t.text == "{")
      return parseBraceDisplay();
    if (t.text == "...") {
      advance();
      return std::make_unique<ConstantExpr>(loc,
                                            ConstantExpr::ValueKind::Ellipsis);
    }
    break;
  case TK::Indent:
    fail(loc, "unexpected indent");
  default:
    break;
  }
  failExpected("an expression");
}

// Adjacent string literals concatenate ("a" "b" == "ab"); with an f-string
// among them the whole is one JoinedStr (its constant parts merged).
ExprPtr Parser::parseStrings() {
  SourceLoc loc = tok().loc;
  bool isBytes = tok().stringPrefix.find('b') != std::string::npos;
  std::string prefix = tok().stringPrefix;
  bool sawFString = false;
  ExprList values;
  std::string pending;
  SourceLoc pendingLoc = loc;
  while (tok().kind == TK::String || tok().kind == TK::FStringStart) {
    bool bytes = tok().stringPrefix.find('b') != std::string::npos;
    if (bytes != isBytes)
      fail(tok().loc, "cannot mix bytes and nonbytes literals");
    if (tok().kind == TK::String) {
      if (pending.empty())
        pendingLoc = tok().loc;
      pending += advance().text;
      continue;
    }
    sawFString = true;
    advance();
    parseFStringParts(values, pending, pendingLoc, /*inSpec=*/false);
  }
  if (!sawFString) {
    auto c = ConstantExpr::makeString(loc, std::move(pending));
    c->stringPrefix = prefix;
    return c;
  }
  if (!pending.empty())
    values.push_back(ConstantExpr::makeString(pendingLoc, std::move(pending)));
  auto joined = std::make_unique<JoinedStrExpr>(loc);
  joined->values = std::move(values);
  return joined;
}

// The parts of an f-string after its FStringStart, up to its FStringEnd
// (or, for a format spec, up to the `}` closing the field). Literal text
// accumulates in `pending` so that neighbours merge into one Constant.
void Parser::parseFStringParts(ExprList &values, std::string &pending,
                               SourceLoc &pendingLoc, bool inSpec) {
  while (true) {
    const Token &t = tok();
    if (t.kind == TK::FStringMiddle) {
      if (pending.empty())
        pendingLoc = t.loc;
      pending += advance().text;
    } else if (t.isOp("{")) {
      parseReplacementField(values, pending, pendingLoc);
    } else if (!inSpec && t.kind == TK::FStringEnd) {
      advance();
      return;
    } else if (inSpec && t.isOp("}")) {
      return;
    } else {
      failExpected(inSpec ? "'}' in f-string" : "end of f-string");
    }
  }
}

// `{expr [=] [!conv] [:spec]}`.
void Parser::parseReplacementField(ExprList &values, std::string &pending,
                                   SourceLoc &pendingLoc) {
  SourceLoc open = advance().loc;
  DepthGuard guard(*this, open);
  if (isOp("}") || isOp("!") || isOp(":") || isOp("="))
    fail(tok().loc,
         "f-string: valid expression required before " + tok().describe());
  SourceLoc exprLoc = tok().loc;
  ExprPtr value = isKw("yield") ? parseYield() : parseTestListStarExpr();
  auto fv = std::make_unique<FormattedValueExpr>(exprLoc, std::move(value));
  bool debug = false;
  if (isOp("=")) {
    // `{x = }` prints its own source text, then the value.
    if (pending.empty())
      pendingLoc = exprLoc;
    pending += tok().spelling;
    advance();
    debug = true;
  }
  if (isOp("!")) {
    SourceLoc bang = advance().loc;
    SourceLoc convLoc = tok().loc;
    if (convLoc.line != bang.line || convLoc.col != bang.col + 1)
      fail(convLoc, "f-string: conversion type must come right after the "
                    "exclamation mark");
    std::string conv = tok().kind == TK::Name ? advance().text : "";
    if (conv != "s" && conv != "r" && conv != "a")
      fail(convLoc, "f-string: invalid conversion character" +
                        (conv.empty() ? std::string(": expected 's', 'r', or "
                                                    "'a'")
                                      : " '" + conv + "'"));
    fv->conversion = conv[0];
  }
  if (isOp(":")) {
    SourceLoc specLoc = advance().loc;
    auto spec = std::make_unique<JoinedStrExpr>(specLoc);
    std::string specText;
    SourceLoc specTextLoc = specLoc;
    parseFStringParts(spec->values, specText, specTextLoc, /*inSpec=*/true);
    if (!specText.empty())
      spec->values.push_back(
          ConstantExpr::makeString(specTextLoc, std::move(specText)));
    fv->formatSpec = std::move(spec);
  }
  if (!isOp("}"))
    failExpected("'}' in f-string");
  advance();
  if (debug && !fv->conversion && !fv->formatSpec)
    fv->conversion = 'r';
  if (!pending.empty())
    values.push_back(ConstantExpr::makeString(pendingLoc, std::move(pending)));
  pending.clear();
  values.push_back(std::move(fv));
}

ExprPtr Parser::parseParenthesized() {
  SourceLoc loc = advance().loc;
  if (acceptOp(")"))
    return std::make_unique<TupleExpr>(loc, ExprList{});
  if (isKw("yield")) {
    ExprPtr y = parseYield();
    expectOp(")");
    return y;
  }
  ExprPtr first = parseStarOrNamedExpr();
  if (isKw("for") || isKw("async")) {
    ExprPtr gen = parseComprehension(std::move(first), loc, true);
    expectOp(")");
    return gen;
  }
  if (!isOp(",")) {
    if (isa<StarredExpr>(first.get()))
      fail(first->loc, "cannot use starred expression here");
    expectOp(")");
    return first; // plain parentheses
  }
  ExprList elts;
  elts.push_back(std::move(first));
  while (acceptOp(",") && !isOp(")"))
    elts.push_back(parseStarOrNamedExpr());
  expectOp(")");
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

ExprPtr Parser::parseListDisplay() {
  SourceLoc loc = advance().loc;
  ExprList elts;
  if (!isOp("]")) {
    elts.push_back(parseStarOrNamedExpr());
    if (isKw("for") || isKw("async")) {
      ExprPtr comp = parseComprehension(std::move(elts[0]), loc, false);
      expectOp("]");
      return comp;
    }
    while (acceptOp(",") && !isOp("]"))
      elts.push_back(parseStarOrNamedExpr());
  }
  expectOp("]");
  return std::make_unique<ListExpr>(loc, std::move(elts));
}

// `{}` and dict displays, set displays, dict and set comprehensions.
ExprPtr Parser::parseBraceDisplay() {
  SourceLoc loc = advance().loc;
  DepthGuard guard(*this, loc);
  if (acceptOp("}"))
    return std::make_unique<DictExpr>(loc, ExprList{}, ExprList{});
  // The first item decides: `**d` or `k: v` make a dict, else a set.
  bool isDict = isOp("**");
  ExprPtr firstKey, firstValue;
  if (!isDict) {
    firstKey = parseStarOrNamedExpr();
    isDict = isOp(":");
  }
  if (!isDict) {
    if (isKw("for") || isKw("async")) {
      auto comp = parseComprehension(std::move(firstKey), loc, false);
      llvm::cast<ListCompExpr>(comp.get())->compKind =
          ListCompExpr::CompKind::Set;
      expectOp("}");
      return comp;
    }
    ExprList elts;
    elts.push_back(std::move(firstKey));
    while (acceptOp(",") && !isOp("}"))
      elts.push_back(parseStarOrNamedExpr());
    expectOp("}");
    return std::make_unique<SetExpr>(loc, std::move(elts));
  }
  ExprList keys, values;
  bool first = true;
  while (!isOp("}")) {
    if (isOp("**")) {
      advance();
      keys.push_back(nullptr);
      values.push_back(parseBinary(0));
    } else {
      ExprPtr key = first && firstKey ? std::move(firstKey) : parseTest();
      if (isa<StarredExpr>(key.get()))
        fail(key->loc, "cannot use a starred expression in a dictionary "
                       "value");
      expectOp(":");
      ExprPtr value = parseTest();
      if (first && (isKw("for") || isKw("async"))) {
        auto comp = parseComprehension(std::move(value), loc, false);
        auto *lc = llvm::cast<ListCompExpr>(comp.get());
        lc->compKind = ListCompExpr::CompKind::Dict;
        lc->key = std::move(key);
        expectOp("}");
        return comp;
      }
      keys.push_back(std::move(key));
      values.push_back(std::move(value));
    }
    first = false;
    if (!acceptOp(","))
      break;
  }
  expectOp("}");
  return std::make_unique<DictExpr>(loc, std::move(keys), std::move(values));
}

// `[async] for target in iter [if cond]...` clauses.
std::vector<Comprehension> Parser::parseComprehensionClauses() {
  std::vector<Comprehension> generators;
  while (isKw("for") || (isKw("async") && peekTok().isKeyword("for"))) {
    Comprehension gen;
    gen.loc = tok().loc;
    gen.isAsync = acceptKw("async");
    advance(); // `for`
    gen.target = parseTargetList();
    validateTarget(gen.target.get());
    expectKw("in", " in comprehension");
    gen.iter = parseOrTest();
    while (acceptKw("if"))
      gen.ifs.push_back(parseOrTest());
    generators.push_back(std::move(gen));
  }
  if (generators.empty())
    failExpected("'for'");
  return generators;
}

ExprPtr Parser::parseComprehension(ExprPtr elt, SourceLoc loc,
                                   bool isGenerator) {
  if (isa<StarredExpr>(elt.get()))
    fail(elt->loc, "iterable unpacking cannot be used in comprehension");
  std::vector<Comprehension> generators = parseComprehensionClauses();
  return std::make_unique<ListCompExpr>(loc, std::move(elt),
                                        std::move(generators), isGenerator);
}

ExprPtr Parser::parseCall(ExprPtr func) {
  SourceLoc opLoc = advance().loc;
  ExprList args;
  std::vector<Keyword> keywords;
  parseArguments(args, keywords);
  expectOp(")");
  SourceLoc loc = func->loc;
  return std::make_unique<CallExpr>(loc, std::move(func), std::move(args),
                                    std::move(keywords), opLoc);
}

// The arguments of a call or the bases of a class, up to (not including)
// the `)`.
void Parser::parseArguments(ExprList &args, std::vector<Keyword> &keywords) {
  bool sawKwUnpack = false;
  std::set<std::string> keywordNames;
  while (!isOp(")")) {
    SourceLoc argLoc = tok().loc;
    if (acceptOp("**")) {
      keywords.push_back({argLoc, "", parseTest()});
      sawKwUnpack = true;
    } else if (isOp("*")) {
      if (sawKwUnpack)
        fail(argLoc, "iterable argument unpacking follows keyword argument "
                     "unpacking");
      advance();
      DepthGuard guard(*this, argLoc);
      args.push_back(std::make_unique<StarredExpr>(argLoc, parseTest()));
    } else {
      bool plainName = tok().kind == TK::Name && peekTok().isOp("=");
      ExprPtr e = parseNamedExprTest();
      if (isKw("for") || isKw("async")) {
        e = parseComprehension(std::move(e), argLoc, true);
        if (!args.empty() || !keywords.empty() || !isOp(")"))
          fail(argLoc, "generator expression must be parenthesized");
        args.push_back(std::move(e));
      } else if (isOp("=")) {
        auto *name = dyn_cast<NameExpr>(e.get());
        if (!name || !plainName)
          fail(e->loc, "expression cannot contain assignment, perhaps you "
                       "meant \"==\"?");
        advance();
        if (!keywordNames.insert(name->id).second)
          fail(argLoc, "keyword argument repeated: " + name->id);
        keywords.push_back({argLoc, name->id, parseTest()});
      } else {
        if (!keywords.empty())
          fail(argLoc, sawKwUnpack ? "positional argument follows keyword "
                                     "argument unpacking"
                                   : "positional argument follows keyword "
                                     "argument");
        args.push_back(std::move(e));
      }
    }
    if (!acceptOp(","))
      break;
  }
}

ExprPtr Parser::parseSubscript(ExprPtr value) {
  SourceLoc opLoc = advance().loc;
  SourceLoc indexLoc = tok().loc;
  ExprPtr index = parseSubscriptItem();
  // `x[*a]` indexes with a tuple, as `x[*a,]` does.
  if (isOp(",") || isa<StarredExpr>(index.get())) {
    ExprList elts;
    elts.push_back(std::move(index));
    while (acceptOp(",") && !isOp("]"))
      elts.push_back(parseSubscriptItem());
    index = std::make_unique<TupleExpr>(indexLoc, std::move(elts));
  }
  expectOp("]");
  SourceLoc loc = value->loc;
  return std::make_unique<SubscriptExpr>(loc, std::move(value),
                                         std::move(index), opLoc);
}

// One index: an expression or a slice `lower:upper:step` (parts optional).
ExprPtr Parser::parseSubscriptItem() {
  SourceLoc loc = tok().loc;
  ExprPtr lower;
  if (!isOp(":")) {
    lower = parseStarOrNamedExpr();
    if (!isOp(":"))
      return lower;
    if (isa<StarredExpr>(lower.get()) || isa<NamedExpr>(lower.get()))
      fail(tok().loc, "invalid syntax: unexpected ':'");
  }
  advance(); // ':'
  auto atPartEnd = [&] { return isOp(":") || isOp("]") || isOp(","); };
  ExprPtr upper, step;
  if (!atPartEnd())
    upper = parseTest();
  if (acceptOp(":") && !atPartEnd())
    step = parseTest();
  return std::make_unique<SliceExpr>(loc, std::move(lower), std::move(upper),
                                     std::move(step));
}

} // namespace

std::unique_ptr<Module> parseModuleOrThrow(const SourceFile &file) {
  std::unique_ptr<CompileError> lexError;
  std::vector<Token> tokens = tokenizeUntilError(file, lexError);
  Parser parser(file, std::move(tokens), std::move(lexError));
  return parser.parseFile();
}

std::unique_ptr<Module> parseModule(const SourceFile &file,
                                    std::string &diagnostics) {
  try {
    return parseModuleOrThrow(file);
  } catch (const CompileError &e) {
    diagnostics += e.getFormatted();
  } catch (const std::exception &e) {
    // Out of memory and the like: still a diagnostic, never an abort.
    diagnostics +=
        file.getName() + ": error: internal error: " + e.what() + "\n";
  }
  return nullptr;
}

} // namespace txl
