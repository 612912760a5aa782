//===- Parser.cpp - Recursive descent parser for the kernel subset --------===//
//
// Follows Python's grammar (Grammar/python.gram, reduced to what kernels
// use), one function per precedence level, lowest first:
//   test (ternary) < or < and < not < comparison < | < ^ < & < shifts
//   < + - < * @ / // % < unary + - ~ < ** < trailers (call, [], .) < atom
// Unary minus binds looser than `**` (-2**2 == -(2**2)) and `**` is right
// associative with a unary allowed on its right (2**-1).
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

class Parser {
public:
  Parser(const SourceFile &file, std::vector<Token> tokens)
      : file(file), diag(file), toks(std::move(tokens)) {}

  std::unique_ptr<Module> parseFile();

private:
  // Token access. The token vector always ends with EndOfFile, and
  // advance() never moves past it.
  const Token &tok() const { return toks[idx]; }
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

  /// Counts nesting; throws "nesting too deep" past kMaxNestingDepth.
  struct DepthGuard {
    DepthGuard(Parser &p, SourceLoc loc) : p(p) {
      if (++p.depth > kMaxNestingDepth)
        p.fail(loc, "nesting too deep (more than " +
                        std::to_string(kMaxNestingDepth) + " levels)");
    }
    ~DepthGuard() { --p.depth; }
    Parser &p;
  };

  // Statements.
  void parseStatement(StmtList &out);
  void parseSimpleStatementLine(StmtList &out);
  StmtPtr parseSmallStatement();
  StmtList parseSuite(const std::string &what, SourceLoc header);
  StmtPtr parseFunctionDef();
  void parseParameters(FunctionDefStmt &f);
  StmtPtr parseIf();
  StmtPtr parseFor();
  StmtPtr parseWhile();
  StmtPtr parseWith();
  StmtPtr parseImport();
  StmtPtr parseImportFrom();
  StmtPtr parseGlobal();
  StmtPtr parseReturn();
  StmtPtr parseExpressionStatement();
  std::string parseDottedName();
  void validateTarget(const Expr *e);
  void validateAugTarget(const Expr *e);

  // Expressions.
  ExprPtr parseTestListStarExpr();
  ExprPtr parseTargetList();
  ExprPtr parseTestOrStar();
  ExprPtr parseStarOrBitOr();
  ExprPtr parseNamedExprTest();
  ExprPtr parseTest();
  ExprPtr parseOrTest();
  ExprPtr parseAndTest();
  ExprPtr parseNotTest();
  ExprPtr parseComparison();
  ExprPtr parseBinary(int level);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parseAtomExpr();
  ExprPtr parseAtom();
  ExprPtr parseStrings();
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  ExprPtr parseDictDisplay();
  ExprPtr parseCall(ExprPtr func);
  ExprPtr parseSubscript(ExprPtr value);
  ExprPtr parseSubscriptItem();
  ExprPtr parseComprehension(ExprPtr elt, SourceLoc loc, bool isGenerator);

  const SourceFile &file;
  DiagnosticEngine diag;
  std::vector<Token> toks;
  size_t idx = 0;
  int depth = 0;
  int loopDepth = 0;     // enclosing loops of the current function
  int functionDepth = 0; // enclosing defs
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
  case TK::String:
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

// Statement keywords kernels never need, with the message that says so.
static const char *unsupportedStatement(const std::string &kw) {
  static const char *const words[] = {"class", "try",   "raise", "del",
                                      "yield", "async", "await"};
  for (const char *w : words)
    if (kw == w)
      return w;
  return nullptr;
}

void Parser::parseStatement(StmtList &out) {
  const Token &t = tok();
  if (t.kind == TK::Indent)
    fail(t.loc, "unexpected indent");
  if (t.kind == TK::Dedent)
    fail(t.loc, "unexpected dedent");
  if (t.isOp("@") || t.isKeyword("def")) {
    out.push_back(parseFunctionDef());
    return;
  }
  if (t.kind == TK::Keyword) {
    if (t.text == "if")
      return out.push_back(parseIf());
    if (t.text == "for")
      return out.push_back(parseFor());
    if (t.text == "while")
      return out.push_back(parseWhile());
    if (t.text == "with")
      return out.push_back(parseWith());
    if (const char *w = unsupportedStatement(t.text))
      fail(t.loc, std::string("'") + w + "' is not supported in txl source");
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
      if (loopDepth == 0)
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
    if (kw == "assert") {
      advance();
      ExprPtr test = parseTest();
      ExprPtr msg;
      if (acceptOp(","))
        msg = parseTest();
      return std::make_unique<AssertStmt>(loc, std::move(test), std::move(msg));
    }
    if (const char *w = unsupportedStatement(kw))
      fail(loc, std::string("'") + w + "' is not supported in txl source");
  }
  return parseExpressionStatement();
}

StmtPtr Parser::parseReturn() {
  SourceLoc loc = advance().loc;
  if (functionDepth == 0)
    fail(loc, "'return' outside function");
  ExprPtr value;
  if (!atStmtEnd())
    value = parseTestListStarExpr();
  return std::make_unique<ReturnStmt>(loc, std::move(value));
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

StmtPtr Parser::parseExpressionStatement() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseTestListStarExpr();
  if (isOp(":")) {
    if (isa<TupleExpr>(first.get()) || isa<ListExpr>(first.get()))
      fail(first->loc, "only single target (not tuple) can be annotated");
    validateAugTarget(first.get());
    advance();
    ExprPtr annotation = parseTest();
    ExprPtr value;
    if (acceptOp("="))
      value = parseTestListStarExpr();
    return std::make_unique<AnnAssignStmt>(
        loc, std::move(first), std::move(annotation), std::move(value));
  }
  BinOpKind op;
  if (isAugAssignOp(tok(), op)) {
    validateAugTarget(first.get());
    SourceLoc opLoc = advance().loc;
    ExprPtr value = parseTestListStarExpr();
    return std::make_unique<AugAssignStmt>(loc, std::move(first), op,
                                           std::move(value), opLoc);
  }
  if (!isOp("="))
    return std::make_unique<ExprStmt>(loc, std::move(first));
  ExprList targets;
  targets.push_back(std::move(first));
  while (acceptOp("="))
    targets.push_back(parseTestListStarExpr());
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
  case Expr::Kind::ListComp:
    return "comprehension";
  case Expr::Kind::Slice:
    return "slice";
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

StmtPtr Parser::parseFunctionDef() {
  ExprList decorators;
  while (isOp("@")) {
    advance();
    decorators.push_back(parseNamedExprTest());
    if (tok().kind != TK::Newline)
      failExpected("end of line after decorator");
    advance();
  }
  if (!isKw("def"))
    failExpected(decorators.empty() ? "'def'" : "'def' after decorator");
  auto f = std::make_unique<FunctionDefStmt>(advance().loc);
  f->decorators = std::move(decorators);
  f->nameLoc = tok().loc;
  f->name = expectName("function name");
  expectOp("(");
  parseParameters(*f);
  expectOp(")");
  if (acceptOp("->"))
    f->returns = parseTest();
  expectOp(":");
  // A def starts a fresh loop context; break/continue do not cross it.
  int savedLoops = loopDepth;
  loopDepth = 0;
  ++functionDepth;
  f->body = parseSuite("function definition", f->loc);
  --functionDepth;
  loopDepth = savedLoops;
  return f;
}

void Parser::parseParameters(FunctionDefStmt &f) {
  bool sawDefault = false;
  while (!isOp(")")) {
    if (isOp("*") || isOp("**") || isOp("/"))
      fail(tok().loc, "'*', '**' and '/' parameters are not supported");
    Arg arg;
    arg.loc = tok().loc;
    arg.name = expectName("parameter name");
    if (f.findArg(arg.name))
      fail(arg.loc, "duplicate parameter '" + arg.name + "'");
    if (acceptOp(":"))
      arg.annotation = parseTest();
    if (acceptOp("=")) {
      arg.defaultValue = parseTest();
      sawDefault = true;
    } else if (sawDefault) {
      fail(arg.loc, "parameter without a default follows parameter with "
                    "a default");
    }
    f.args.push_back(std::move(arg));
    if (!acceptOp(","))
      break;
  }
}

StmtPtr Parser::parseIf() {
  SourceLoc loc = advance().loc;
  ExprPtr test = parseNamedExprTest();
  expectOp(":");
  auto top = std::make_unique<IfStmt>(loc, std::move(test));
  top->body = parseSuite("'if' statement", loc);
  // elif chains are built in a loop (each elif nests in the previous orelse).
  IfStmt *tail = top.get();
  while (isKw("elif")) {
    SourceLoc elifLoc = advance().loc;
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

StmtPtr Parser::parseFor() {
  SourceLoc loc = advance().loc;
  ExprPtr target = parseTargetList();
  validateTarget(target.get());
  expectKw("in", " after 'for' target");
  ExprPtr iter = parseTestListStarExpr();
  expectOp(":");
  auto s = std::make_unique<ForStmt>(loc, std::move(target), std::move(iter));
  ++loopDepth;
  s->body = parseSuite("'for' statement", loc);
  --loopDepth;
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
  ++loopDepth;
  s->body = parseSuite("'while' statement", loc);
  --loopDepth;
  if (isKw("else")) {
    s->elseLoc = advance().loc;
    expectOp(":");
    s->orelse = parseSuite("'else' statement", s->elseLoc);
  }
  return s;
}

StmtPtr Parser::parseWith() {
  auto s = std::make_unique<WithStmt>(advance().loc);
  do {
    WithItem item;
    item.contextExpr = parseTest();
    if (acceptKw("as")) {
      item.optionalVars = parseStarOrBitOr();
      validateTarget(item.optionalVars.get());
    }
    s->items.push_back(std::move(item));
  } while (acceptOp(","));
  expectOp(":");
  s->body = parseSuite("'with' statement", s->loc);
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
    if (paren && isOp(")"))
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
  return s;
}

StmtPtr Parser::parseGlobal() {
  const Token &kw = advance();
  SourceLoc loc = kw.loc;
  bool isNonlocal = kw.text == "nonlocal";
  std::vector<std::string> names;
  do
    names.push_back(expectName("name"));
  while (acceptOp(","));
  return std::make_unique<GlobalStmt>(loc, std::move(names), isNonlocal);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

// `a, *b, c` as an expression statement, assignment side or return value:
// one element stays itself, several (or a trailing comma) make a Tuple.
ExprPtr Parser::parseTestListStarExpr() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseTestOrStar();
  if (!isOp(","))
    return first;
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

ExprPtr Parser::parseStarOrBitOr() {
  if (!isOp("*"))
    return parseBinary(0);
  SourceLoc loc = advance().loc;
  DepthGuard guard(*this, loc);
  return std::make_unique<StarredExpr>(loc, parseBinary(0));
}

ExprPtr Parser::parseNamedExprTest() {
  ExprPtr e = parseTest();
  if (isOp(":="))
    fail(tok().loc, "assignment expressions (':=') are not supported");
  return e;
}

ExprPtr Parser::parseTest() {
  DepthGuard guard(*this, tok().loc);
  if (isKw("lambda"))
    fail(tok().loc, "lambda expressions are not supported");
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
  while (matchBinaryOp(tok(), level, op)) {
    SourceLoc opLoc = advance().loc;
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

ExprPtr Parser::parsePower() {
  SourceLoc loc = tok().loc;
  ExprPtr base = parseAtomExpr();
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
  while (true) {
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
    advance();
    return c;
  }
  case TK::Float:
    return ConstantExpr::makeFloat(loc, advance().floatValue);
  case TK::String:
    return parseStrings();
  case TK::Keyword:
    if (t.text == "None" || t.text == "True" || t.text == "False") {
      std::string word = advance().text;
      if (word == "None")
        return ConstantExpr::makeNone(loc);
      return ConstantExpr::makeBool(loc, word == "True");
    }
    if (t.text == "lambda")
      fail(loc, "lambda expressions are not supported");
    if (t.text == "yield" || t.text == "await")
      fail(loc, "'" + t.text + "' is not supported in txl source");
    break;
  case TK::Op:
    if (t.text == "(")
      return parseParenthesized();
    if (t.text == "[")
      return parseListDisplay();
    if (t.text == "{")
      return parseDictDisplay();
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

// Adjacent string literals concatenate ("a" "b" == "ab").
ExprPtr Parser::parseStrings() {
  SourceLoc loc = tok().loc;
  bool isBytes = tok().stringPrefix.find('b') != std::string::npos;
  auto c = ConstantExpr::makeString(loc, "");
  c->stringPrefix = tok().stringPrefix;
  while (tok().kind == TK::String) {
    if ((tok().stringPrefix.find('b') != std::string::npos) != isBytes)
      fail(tok().loc, "cannot mix bytes and nonbytes literals");
    c->stringValue += advance().text;
  }
  return c;
}

ExprPtr Parser::parseParenthesized() {
  SourceLoc loc = advance().loc;
  if (acceptOp(")"))
    return std::make_unique<TupleExpr>(loc, ExprList{});
  ExprPtr first = parseTestOrStar();
  if (isOp(":="))
    fail(tok().loc, "assignment expressions (':=') are not supported");
  if (isKw("for")) {
    ExprPtr gen = parseComprehension(std::move(first), loc, true);
    expectOp(")");
    return gen;
  }
  if (!isOp(",")) {
    expectOp(")");
    return first; // plain parentheses
  }
  ExprList elts;
  elts.push_back(std::move(first));
  while (acceptOp(",") && !isOp(")"))
    elts.push_back(parseTestOrStar());
  expectOp(")");
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

ExprPtr Parser::parseListDisplay() {
  SourceLoc loc = advance().loc;
  ExprList elts;
  if (!isOp("]")) {
    elts.push_back(parseTestOrStar());
    if (isKw("for")) {
      ExprPtr comp = parseComprehension(std::move(elts[0]), loc, false);
      expectOp("]");
      return comp;
    }
    while (acceptOp(",") && !isOp("]"))
      elts.push_back(parseTestOrStar());
  }
  expectOp("]");
  return std::make_unique<ListExpr>(loc, std::move(elts));
}

ExprPtr Parser::parseDictDisplay() {
  SourceLoc loc = advance().loc;
  ExprList keys, values;
  while (!isOp("}")) {
    if (isOp("**")) {
      // `{**{**{...` recurses below parseTest, so it needs its own guard.
      DepthGuard guard(*this, advance().loc);
      keys.push_back(nullptr);
      values.push_back(parseBinary(0));
    } else {
      ExprPtr key = parseTest();
      if (!isOp(":"))
        fail(key->loc, "set displays are not supported");
      advance();
      keys.push_back(std::move(key));
      values.push_back(parseTest());
      if (isKw("for"))
        fail(tok().loc, "dict comprehensions are not supported");
    }
    if (!acceptOp(","))
      break;
  }
  expectOp("}");
  return std::make_unique<DictExpr>(loc, std::move(keys), std::move(values));
}

ExprPtr Parser::parseComprehension(ExprPtr elt, SourceLoc loc,
                                   bool isGenerator) {
  std::vector<Comprehension> generators;
  while (isKw("for")) {
    Comprehension gen;
    gen.loc = advance().loc;
    gen.target = parseTargetList();
    validateTarget(gen.target.get());
    expectKw("in", " in comprehension");
    gen.iter = parseOrTest();
    while (acceptKw("if"))
      gen.ifs.push_back(parseOrTest());
    generators.push_back(std::move(gen));
  }
  return std::make_unique<ListCompExpr>(loc, std::move(elt),
                                        std::move(generators), isGenerator);
}

ExprPtr Parser::parseCall(ExprPtr func) {
  SourceLoc opLoc = advance().loc;
  ExprList args;
  std::vector<Keyword> keywords;
  while (!isOp(")")) {
    SourceLoc argLoc = tok().loc;
    if (acceptOp("**")) {
      keywords.push_back({argLoc, "", parseTest()});
    } else if (isOp("*")) {
      args.push_back(parseStarOrBitOr());
    } else {
      ExprPtr e = parseTest();
      if (isKw("for")) {
        if (!args.empty() || !keywords.empty())
          fail(argLoc, "generator expression must be parenthesized");
        args.push_back(parseComprehension(std::move(e), argLoc, true));
      } else if (isOp("=")) {
        auto *name = dyn_cast<NameExpr>(e.get());
        if (!name)
          fail(e->loc, "expression cannot contain assignment, perhaps you "
                       "meant \"==\"?");
        advance();
        for (const Keyword &k : keywords)
          if (k.name == name->id)
            fail(argLoc, "keyword argument repeated: " + name->id);
        keywords.push_back({argLoc, name->id, parseTest()});
      } else {
        if (!keywords.empty())
          fail(argLoc, keywords.back().name.empty()
                           ? "positional argument follows keyword argument "
                             "unpacking"
                           : "positional argument follows keyword argument");
        args.push_back(std::move(e));
      }
    }
    if (!acceptOp(","))
      break;
  }
  expectOp(")");
  SourceLoc loc = func->loc;
  return std::make_unique<CallExpr>(loc, std::move(func), std::move(args),
                                    std::move(keywords), opLoc);
}

ExprPtr Parser::parseSubscript(ExprPtr value) {
  SourceLoc opLoc = advance().loc;
  SourceLoc indexLoc = tok().loc;
  ExprPtr index = parseSubscriptItem();
  if (isOp(",")) {
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
    lower = parseTestOrStar();
    if (!isOp(":"))
      return lower;
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
  Parser parser(file, tokenize(file));
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
