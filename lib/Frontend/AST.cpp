//===- AST.cpp - Syntax tree helpers and the s-expression dump ------------===//

#include "txl/Frontend/AST.h"

#include "llvm/Support/Casting.h"

#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>

using llvm::cast;

namespace txl {

Expr::~Expr() = default;
Stmt::~Stmt() = default;

std::unique_ptr<ConstantExpr> ConstantExpr::makeInt(SourceLoc loc, int64_t v) {
  auto c = std::make_unique<ConstantExpr>(loc, ValueKind::Int);
  c->intValue = v;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::makeFloat(SourceLoc loc, double v) {
  auto c = std::make_unique<ConstantExpr>(loc, ValueKind::Float);
  c->floatValue = v;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::makeBool(SourceLoc loc, bool v) {
  auto c = std::make_unique<ConstantExpr>(loc, ValueKind::Bool);
  c->boolValue = v;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::makeNone(SourceLoc loc) {
  return std::make_unique<ConstantExpr>(loc, ValueKind::None);
}

std::unique_ptr<ConstantExpr> ConstantExpr::makeString(SourceLoc loc,
                                                       std::string v) {
  auto c = std::make_unique<ConstantExpr>(loc, ValueKind::String);
  c->stringValue = std::move(v);
  return c;
}

const Keyword *CallExpr::findKeyword(const std::string &name) const {
  for (const Keyword &k : keywords)
    if (k.name == name)
      return &k;
  return nullptr;
}

const ConstantExpr *FunctionDefStmt::getDocstring() const {
  if (body.empty())
    return nullptr;
  auto *es = llvm::dyn_cast<ExprStmt>(body.front().get());
  if (!es)
    return nullptr;
  auto *c = llvm::dyn_cast<ConstantExpr>(es->value.get());
  return c && c->isString() ? c : nullptr;
}

const Arg *Parameters::findArg(const std::string &argName) const {
  for (const std::vector<Arg> *list : {&args, &kwOnlyArgs})
    for (const Arg &a : *list)
      if (a.name == argName)
        return &a;
  for (const Arg *a : {vararg.get(), kwarg.get()})
    if (a && a->name == argName)
      return a;
  return nullptr;
}

const char *ListCompExpr::describe() const {
  switch (compKind) {
  case CompKind::List:
    return "list comprehension";
  case CompKind::Set:
    return "set comprehension";
  case CompKind::Dict:
    return "dict comprehension";
  case CompKind::Generator:
    return "generator expression";
  }
  return "comprehension";
}

std::string constructName(const Stmt &s) {
  switch (s.getKind()) {
  case Stmt::Kind::FunctionDef:
    return llvm::cast<FunctionDefStmt>(s).isAsync ? "async function definition"
                                                  : "function definition";
  case Stmt::Kind::ClassDef:
    return "class definition";
  case Stmt::Kind::Try:
    return llvm::cast<TryStmt>(s).isStar ? "try statement with except*"
                                         : "try statement";
  case Stmt::Kind::Raise:
    return "raise statement";
  case Stmt::Kind::Delete:
    return "del statement";
  case Stmt::Kind::Match:
    return "match statement";
  case Stmt::Kind::TypeAlias:
    return "type alias";
  case Stmt::Kind::Global:
    return llvm::cast<GlobalStmt>(s).isNonlocal ? "nonlocal statement"
                                                : "global statement";
  case Stmt::Kind::With:
    return llvm::cast<WithStmt>(s).isAsync ? "async with statement"
                                           : "with statement";
  case Stmt::Kind::For:
    return llvm::cast<ForStmt>(s).isAsync ? "async for statement"
                                          : "for statement";
  case Stmt::Kind::Import:
  case Stmt::Kind::ImportFrom:
    return "import statement";
  default:
    return "statement";
  }
}

std::string constructName(const Expr &e) {
  switch (e.getKind()) {
  case Expr::Kind::Set:
    return "set display";
  case Expr::Kind::Dict:
    return "dict display";
  case Expr::Kind::Lambda:
    return "lambda";
  case Expr::Kind::NamedExpr:
    return "assignment expression (:=)";
  case Expr::Kind::ListComp:
    return llvm::cast<ListCompExpr>(e).describe();
  case Expr::Kind::HostOnly:
    return llvm::cast<HostOnlyExpr>(e).construct;
  case Expr::Kind::JoinedStr:
    return "f-string";
  case Expr::Kind::Constant:
    if (llvm::cast<ConstantExpr>(e).valueKind ==
        ConstantExpr::ValueKind::Complex)
      return "complex number";
    if (llvm::cast<ConstantExpr>(e).isBytes())
      return "bytes literal";
    return "constant";
  default:
    return "expression";
  }
}

const FunctionDefStmt *Module::findFunction(const std::string &name) const {
  const FunctionDefStmt *found = nullptr;
  for (const StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<FunctionDefStmt>(s.get()))
      if (f->name == name)
        found = f; // a later definition wins, as in Python
  return found;
}

std::vector<const FunctionDefStmt *> Module::getFunctions() const {
  std::vector<const FunctionDefStmt *> out;
  for (const StmtPtr &s : body)
    if (auto *f = llvm::dyn_cast<FunctionDefStmt>(s.get()))
      out.push_back(f);
  return out;
}

const char *spelling(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Neg:
    return "-";
  case UnaryOpKind::Pos:
    return "+";
  case UnaryOpKind::Not:
    return "not";
  case UnaryOpKind::Invert:
    return "~";
  }
  return "?";
}

const char *spelling(BinOpKind op) {
  static const char *const names[] = {"+", "-",  "*",  "/", "//", "%", "**",
                                      "@", "<<", ">>", "&", "|",  "^"};
  return names[static_cast<int>(op)];
}

const char *spelling(BoolOpKind op) {
  return op == BoolOpKind::And ? "and" : "or";
}

const char *spelling(CmpOpKind op) {
  // In the order of CmpOpKind.
  static const char *const names[] = {
      "<", "<=", ">", ">=", "==", "!=", "is", "is not", "in", "not in"};
  return names[static_cast<int>(op)];
}

//===----------------------------------------------------------------------===//
// Dump
//===----------------------------------------------------------------------===//

// Shortest decimal text that reads back as the same double.
static std::string formatDouble(double d) {
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d)
      break;
  }
  return buf;
}

static std::string quote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

static void dumpOpt(const Expr *e, std::ostream &os) {
  if (e)
    e->dump(os);
  else
    os << "_";
}

static void dumpList(const ExprList &list, std::ostream &os) {
  for (const ExprPtr &e : list) {
    os << ' ';
    dumpOpt(e.get(), os);
  }
}

static void dumpConstant(const ConstantExpr &c, std::ostream &os) {
  switch (c.valueKind) {
  case ConstantExpr::ValueKind::Int:
    if (c.isTooLarge)
      os << "(Int " << c.stringValue << " big)";
    else if (c.isUnsigned64)
      os << "(Int " << static_cast<uint64_t>(c.intValue) << " u64)";
    else
      os << "(Int " << c.intValue << ")";
    return;
  case ConstantExpr::ValueKind::Float:
    os << "(Float " << formatDouble(c.floatValue) << ")";
    return;
  case ConstantExpr::ValueKind::Bool:
    os << "(Bool " << (c.boolValue ? "True" : "False") << ")";
    return;
  case ConstantExpr::ValueKind::None:
    os << "(None)";
    return;
  case ConstantExpr::ValueKind::String:
    os << "(Str " << c.stringPrefix << quote(c.stringValue) << ")";
    return;
  case ConstantExpr::ValueKind::Ellipsis:
    os << "(Ellipsis)";
    return;
  case ConstantExpr::ValueKind::Complex:
    os << "(Complex " << formatDouble(c.floatValue) << "j)";
    return;
  }
}

static void dumpComprehension(const ListCompExpr &lc, std::ostream &os) {
  static const char *const names[] = {"(ListComp ", "(SetComp ", "(DictComp ",
                                      "(GenExp "};
  os << names[static_cast<int>(lc.compKind)];
  if (lc.key) {
    lc.key->dump(os);
    os << ' ';
  }
  lc.elt->dump(os);
  for (const Comprehension &g : lc.generators) {
    os << (g.isAsync ? " (async-for " : " (for ");
    g.target->dump(os);
    os << ' ';
    g.iter->dump(os);
    for (const ExprPtr &cond : g.ifs) {
      os << " (if ";
      cond->dump(os);
      os << ')';
    }
    os << ')';
  }
  os << ')';
}

static void dumpKeywords(const std::vector<Keyword> &keywords,
                         std::ostream &os) {
  for (const Keyword &k : keywords) {
    os << " (kw " << (k.name.empty() ? "**" : k.name) << ' ';
    k.value->dump(os);
    os << ')';
  }
}

static void dumpCall(const CallExpr &c, std::ostream &os) {
  os << "(Call ";
  c.func->dump(os);
  dumpList(c.args, os);
  dumpKeywords(c.keywords, os);
  os << ')';
}

static void dumpArg(const char *label, const Arg &a, std::ostream &os) {
  os << '(' << label << ' ' << a.name << ' ';
  dumpOpt(a.annotation.get(), os);
  os << ' ';
  dumpOpt(a.defaultValue.get(), os);
  os << ')';
}

// One `(arg ...)` per parameter, with the `/` and bare `*` markers where
// they stand in the source; `sep` goes before each.
static void dumpParameters(const Parameters &p, const std::string &sep,
                           std::ostream &os) {
  for (size_t i = 0; i < p.args.size(); ++i) {
    os << sep;
    dumpArg("arg", p.args[i], os);
    if (i + 1 == p.posOnlyCount)
      os << sep << "(/)";
  }
  if (p.vararg) {
    os << sep;
    dumpArg("*arg", *p.vararg, os);
  } else if (!p.kwOnlyArgs.empty()) {
    os << sep << "(*)";
  }
  for (const Arg &a : p.kwOnlyArgs) {
    os << sep;
    dumpArg("kwonly", a, os);
  }
  if (p.kwarg) {
    os << sep;
    dumpArg("**arg", *p.kwarg, os);
  }
}

static void dumpJoinedStr(const JoinedStrExpr &j, std::ostream &os) {
  os << "(JoinedStr";
  dumpList(j.values, os);
  os << ')';
}

static void dumpFormattedValue(const FormattedValueExpr &f, std::ostream &os) {
  os << "(FormattedValue ";
  f.value->dump(os);
  if (f.conversion)
    os << " !" << f.conversion;
  if (f.formatSpec) {
    os << " :";
    f.formatSpec->dump(os);
  }
  os << ')';
}

void Expr::dump(std::ostream &os) const {
  switch (kind) {
  case Kind::Name:
    os << "(Name " << cast<NameExpr>(this)->id << ')';
    return;
  case Kind::Constant:
    dumpConstant(*cast<ConstantExpr>(this), os);
    return;
  case Kind::Tuple:
    os << "(Tuple";
    dumpList(cast<TupleExpr>(this)->elts, os);
    os << ')';
    return;
  case Kind::List:
    os << "(List";
    dumpList(cast<ListExpr>(this)->elts, os);
    os << ')';
    return;
  case Kind::Dict: {
    auto *d = cast<DictExpr>(this);
    os << "(Dict";
    for (size_t i = 0; i < d->keys.size(); ++i) {
      os << (d->keys[i] ? " (: " : " (** ");
      if (d->keys[i]) {
        d->keys[i]->dump(os);
        os << ' ';
      }
      d->values[i]->dump(os);
      os << ')';
    }
    os << ')';
    return;
  }
  case Kind::Attribute: {
    auto *a = cast<AttributeExpr>(this);
    os << "(Attr ";
    a->value->dump(os);
    os << ' ' << a->attr << ')';
    return;
  }
  case Kind::Subscript: {
    auto *s = cast<SubscriptExpr>(this);
    os << "(Subscript ";
    s->value->dump(os);
    os << ' ';
    s->index->dump(os);
    os << ')';
    return;
  }
  case Kind::Slice: {
    auto *s = cast<SliceExpr>(this);
    os << "(Slice ";
    dumpOpt(s->lower.get(), os);
    os << ' ';
    dumpOpt(s->upper.get(), os);
    os << ' ';
    dumpOpt(s->step.get(), os);
    os << ')';
    return;
  }
  case Kind::Call:
    dumpCall(*cast<CallExpr>(this), os);
    return;
  case Kind::UnaryOp: {
    auto *u = cast<UnaryOpExpr>(this);
    os << "(UnaryOp " << spelling(u->op) << ' ';
    u->operand->dump(os);
    os << ')';
    return;
  }
  case Kind::BinOp: {
    auto *b = cast<BinOpExpr>(this);
    os << "(BinOp " << spelling(b->op) << ' ';
    b->lhs->dump(os);
    os << ' ';
    b->rhs->dump(os);
    os << ')';
    return;
  }
  case Kind::BoolOp: {
    auto *b = cast<BoolOpExpr>(this);
    os << "(BoolOp " << spelling(b->op);
    dumpList(b->values, os);
    os << ')';
    return;
  }
  case Kind::Compare: {
    auto *c = cast<CompareExpr>(this);
    os << "(Compare ";
    c->left->dump(os);
    for (size_t i = 0; i < c->ops.size(); ++i) {
      os << ' ' << spelling(c->ops[i]) << ' ';
      c->comparators[i]->dump(os);
    }
    os << ')';
    return;
  }
  case Kind::IfExp: {
    auto *i = cast<IfExpExpr>(this);
    os << "(IfExp ";
    i->test->dump(os);
    os << ' ';
    i->body->dump(os);
    os << ' ';
    i->orelse->dump(os);
    os << ')';
    return;
  }
  case Kind::Starred:
    os << "(Starred ";
    cast<StarredExpr>(this)->value->dump(os);
    os << ')';
    return;
  case Kind::ListComp:
    dumpComprehension(*cast<ListCompExpr>(this), os);
    return;
  case Kind::Set:
    os << "(Set";
    dumpList(cast<SetExpr>(this)->elts, os);
    os << ')';
    return;
  case Kind::Lambda: {
    auto *l = cast<LambdaExpr>(this);
    os << "(Lambda";
    dumpParameters(l->params, " ", os);
    os << ' ';
    l->body->dump(os);
    os << ')';
    return;
  }
  case Kind::NamedExpr: {
    auto *n = cast<NamedExpr>(this);
    os << "(NamedExpr ";
    n->target->dump(os);
    os << ' ';
    n->value->dump(os);
    os << ')';
    return;
  }
  case Kind::JoinedStr:
    dumpJoinedStr(*cast<JoinedStrExpr>(this), os);
    return;
  case Kind::FormattedValue:
    dumpFormattedValue(*cast<FormattedValueExpr>(this), os);
    return;
  case Kind::HostOnly: {
    auto *h = cast<HostOnlyExpr>(this);
    os << "(HostOnly \"" << h->construct << '"';
    dumpList(h->operands, os);
    os << ')';
    return;
  }
  }
}

std::string Expr::str() const {
  std::ostringstream os;
  dump(os);
  return os.str();
}

static void dumpBlock(const char *label, const StmtList &body, std::ostream &os,
                      int indent) {
  os << std::string(indent, ' ') << label << ":\n";
  for (const StmtPtr &s : body)
    s->dump(os, indent + 2);
}

static void dumpDecorators(const ExprList &decorators, const std::string &pad,
                           std::ostream &os) {
  for (const ExprPtr &d : decorators) {
    os << pad << "(decorator ";
    d->dump(os);
    os << ")\n";
  }
}

static void dumpTypeParams(const std::vector<TypeParam> &params,
                           std::ostream &os) {
  static const char *const marks[] = {"", "*", "**"};
  for (const TypeParam &p : params) {
    os << " (typeparam " << marks[static_cast<int>(p.kind)] << p.name;
    if (p.bound) {
      os << ' ';
      p.bound->dump(os);
    }
    os << ')';
  }
}

static void dumpFunction(const FunctionDefStmt &f, std::ostream &os,
                         int indent) {
  std::string pad(indent + 2, ' ');
  os << (f.isAsync ? "(AsyncFunctionDef " : "(FunctionDef ") << f.name;
  dumpTypeParams(f.typeParams, os);
  os << '\n';
  dumpDecorators(f.decorators, pad, os);
  std::string sep = "\n" + pad;
  std::ostringstream params;
  dumpParameters(f, sep, params);
  // dumpParameters puts the separator first; one parameter per line.
  if (!params.str().empty())
    os << params.str().substr(1) << '\n';
  if (f.returns) {
    os << pad << "(returns ";
    f.returns->dump(os);
    os << ")\n";
  }
  dumpBlock("body", f.body, os, indent + 2);
}

static void dumpPattern(const Pattern &p, std::ostream &os) {
  switch (p.kind) {
  case Pattern::Kind::Value:
  case Pattern::Kind::Singleton:
    os << (p.kind == Pattern::Kind::Value ? "(PValue " : "(PSingleton ");
    p.value->dump(os);
    os << ')';
    return;
  case Pattern::Kind::Capture:
    os << "(PCapture " << p.name << ')';
    return;
  case Pattern::Kind::Wildcard:
    os << "(PWildcard)";
    return;
  case Pattern::Kind::Star:
    os << "(PStar " << (p.name.empty() ? "_" : p.name) << ')';
    return;
  case Pattern::Kind::Sequence:
  case Pattern::Kind::Or:
    os << (p.kind == Pattern::Kind::Or ? "(POr" : "(PSequence");
    for (const Pattern &sub : p.patterns) {
      os << ' ';
      dumpPattern(sub, os);
    }
    os << ')';
    return;
  case Pattern::Kind::Mapping:
    os << "(PMapping";
    for (size_t i = 0; i < p.keys.size() && i < p.patterns.size(); ++i) {
      os << " (: ";
      p.keys[i]->dump(os);
      os << ' ';
      dumpPattern(p.patterns[i], os);
      os << ')';
    }
    if (!p.name.empty())
      os << " (** " << p.name << ')';
    os << ')';
    return;
  case Pattern::Kind::Class:
    os << "(PClass ";
    p.value->dump(os);
    for (const Pattern &sub : p.patterns) {
      os << ' ';
      dumpPattern(sub, os);
    }
    for (size_t i = 0; i < p.kwdNames.size(); ++i) {
      os << " (kw " << p.kwdNames[i] << ' ';
      dumpPattern(p.kwdPatterns[i], os);
      os << ')';
    }
    os << ')';
    return;
  case Pattern::Kind::As:
    os << "(PAs ";
    if (!p.patterns.empty())
      dumpPattern(p.patterns[0], os);
    os << ' ' << p.name << ')';
    return;
  }
}

static void dumpImportNames(const std::vector<ImportAlias> &names,
                            std::ostream &os) {
  for (const ImportAlias &a : names) {
    os << ' ' << a.name;
    if (!a.asname.empty())
      os << " as " << a.asname;
  }
}

// Statements whose dump fits on one line; returns false for compound ones.
static bool dumpSimpleStmt(const Stmt &s, std::ostream &os) {
  switch (s.getKind()) {
  case Stmt::Kind::Assign: {
    auto &a = cast<AssignStmt>(s);
    os << "(Assign";
    dumpList(a.targets, os);
    os << " = ";
    a.value->dump(os);
    os << ')';
    return true;
  }
  case Stmt::Kind::AugAssign: {
    auto &a = cast<AugAssignStmt>(s);
    os << "(AugAssign ";
    a.target->dump(os);
    os << ' ' << spelling(a.op) << "= ";
    a.value->dump(os);
    os << ')';
    return true;
  }
  case Stmt::Kind::AnnAssign: {
    auto &a = cast<AnnAssignStmt>(s);
    os << "(AnnAssign ";
    a.target->dump(os);
    os << ' ';
    a.annotation->dump(os);
    os << ' ';
    dumpOpt(a.value.get(), os);
    os << ')';
    return true;
  }
  case Stmt::Kind::Break:
    os << "(Break)";
    return true;
  case Stmt::Kind::Continue:
    os << "(Continue)";
    return true;
  case Stmt::Kind::Pass:
    os << "(Pass)";
    return true;
  case Stmt::Kind::Return:
    os << "(Return ";
    dumpOpt(cast<ReturnStmt>(s).value.get(), os);
    os << ')';
    return true;
  case Stmt::Kind::ExprStmt:
    os << "(Expr ";
    cast<ExprStmt>(s).value->dump(os);
    os << ')';
    return true;
  case Stmt::Kind::Assert: {
    auto &a = cast<AssertStmt>(s);
    os << "(Assert ";
    a.test->dump(os);
    os << ' ';
    dumpOpt(a.msg.get(), os);
    os << ')';
    return true;
  }
  case Stmt::Kind::Import:
    os << "(Import";
    dumpImportNames(cast<ImportStmt>(s).names, os);
    os << ')';
    return true;
  case Stmt::Kind::ImportFrom: {
    auto &i = cast<ImportFromStmt>(s);
    os << "(ImportFrom " << std::string(i.level, '.') << i.module;
    dumpImportNames(i.names, os);
    os << ')';
    return true;
  }
  case Stmt::Kind::Global: {
    auto &g = cast<GlobalStmt>(s);
    os << (g.isNonlocal ? "(Nonlocal" : "(Global");
    for (const std::string &n : g.names)
      os << ' ' << n;
    os << ')';
    return true;
  }
  case Stmt::Kind::Raise: {
    auto &r = cast<RaiseStmt>(s);
    os << "(Raise ";
    dumpOpt(r.exc.get(), os);
    os << ' ';
    dumpOpt(r.cause.get(), os);
    os << ')';
    return true;
  }
  case Stmt::Kind::Delete:
    os << "(Delete";
    dumpList(cast<DeleteStmt>(s).targets, os);
    os << ')';
    return true;
  case Stmt::Kind::TypeAlias: {
    auto &t = cast<TypeAliasStmt>(s);
    os << "(TypeAlias " << t.name;
    dumpTypeParams(t.typeParams, os);
    os << ' ';
    t.value->dump(os);
    os << ')';
    return true;
  }
  default:
    return false;
  }
}

static void dumpClass(const ClassDefStmt &c, std::ostream &os, int indent) {
  std::string pad(indent + 2, ' ');
  os << "(ClassDef " << c.name;
  dumpTypeParams(c.typeParams, os);
  dumpList(c.bases, os);
  dumpKeywords(c.keywords, os);
  os << '\n';
  dumpDecorators(c.decorators, pad, os);
  dumpBlock("body", c.body, os, indent + 2);
}

static void dumpTry(const TryStmt &t, std::ostream &os, int indent) {
  std::string pad(indent + 2, ' ');
  os << (t.isStar ? "(TryStar\n" : "(Try\n");
  dumpBlock("body", t.body, os, indent + 2);
  for (const ExceptHandler &h : t.handlers) {
    os << pad << "(except ";
    dumpOpt(h.type.get(), os);
    os << ' ' << (h.name.empty() ? "_" : h.name) << '\n';
    dumpBlock("body", h.body, os, indent + 4);
    os << pad << ")\n";
  }
  if (!t.orelse.empty())
    dumpBlock("orelse", t.orelse, os, indent + 2);
  if (!t.finalbody.empty())
    dumpBlock("finally", t.finalbody, os, indent + 2);
}

static void dumpMatch(const MatchStmt &m, std::ostream &os, int indent) {
  std::string pad(indent + 2, ' ');
  os << "(Match ";
  m.subject->dump(os);
  os << '\n';
  for (const MatchCase &c : m.cases) {
    os << pad << "(case ";
    dumpPattern(c.pattern, os);
    if (c.guard) {
      os << " (if ";
      c.guard->dump(os);
      os << ')';
    }
    os << '\n';
    dumpBlock("body", c.body, os, indent + 4);
    os << pad << ")\n";
  }
}

void Stmt::dump(std::ostream &os, int indent) const {
  std::string pad(indent, ' ');
  os << pad;
  if (dumpSimpleStmt(*this, os)) {
    os << '\n';
    return;
  }
  switch (kind) {
  case Kind::FunctionDef:
    dumpFunction(*cast<FunctionDefStmt>(this), os, indent);
    break;
  case Kind::If: {
    auto *s = cast<IfStmt>(this);
    os << (s->isElif ? "(Elif " : "(If ");
    s->test->dump(os);
    os << '\n';
    dumpBlock("body", s->body, os, indent + 2);
    if (!s->orelse.empty())
      dumpBlock("orelse", s->orelse, os, indent + 2);
    break;
  }
  case Kind::For: {
    auto *s = cast<ForStmt>(this);
    os << (s->isAsync ? "(AsyncFor " : "(For ");
    s->target->dump(os);
    os << ' ';
    s->iter->dump(os);
    os << '\n';
    dumpBlock("body", s->body, os, indent + 2);
    if (!s->orelse.empty())
      dumpBlock("orelse", s->orelse, os, indent + 2);
    break;
  }
  case Kind::While: {
    auto *s = cast<WhileStmt>(this);
    os << "(While ";
    s->test->dump(os);
    os << '\n';
    dumpBlock("body", s->body, os, indent + 2);
    if (!s->orelse.empty())
      dumpBlock("orelse", s->orelse, os, indent + 2);
    break;
  }
  case Kind::With: {
    auto *s = cast<WithStmt>(this);
    os << (s->isAsync ? "(AsyncWith" : "(With");
    for (const WithItem &item : s->items) {
      os << " (item ";
      item.contextExpr->dump(os);
      os << ' ';
      dumpOpt(item.optionalVars.get(), os);
      os << ')';
    }
    os << '\n';
    dumpBlock("body", s->body, os, indent + 2);
    break;
  }
  case Kind::ClassDef:
    dumpClass(*cast<ClassDefStmt>(this), os, indent);
    break;
  case Kind::Try:
    dumpTry(*cast<TryStmt>(this), os, indent);
    break;
  case Kind::Match:
    dumpMatch(*cast<MatchStmt>(this), os, indent);
    break;
  default:
    break;
  }
  os << pad << ")\n";
}

std::string Stmt::str() const {
  std::ostringstream os;
  dump(os);
  return os.str();
}

void Module::dump(std::ostream &os) const {
  os << "(Module\n";
  for (const StmtPtr &s : body)
    s->dump(os, 2);
  os << ")\n";
}

std::string Module::str() const {
  std::ostringstream os;
  dump(os);
  return os.str();
}

} // namespace txl
