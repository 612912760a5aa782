//===- AST.h - Syntax tree of a Python 3.12 module -------------*- C++ -*-===//
//
// Design
// ------
// Two small class hierarchies, `Expr` and `Stmt`, modelled on Python's own
// `ast` module so that anyone who knows it can read this one: an `elif` is an
// `If` whose `orelse` holds a single `If`; `x[:, None]` is a Subscript whose
// index is a Tuple(Slice, Constant None); `-1` is UnaryOp(Neg, Constant 1);
// a docstring is an ExprStmt holding a string Constant.
//
// Every construct of the language has a node, because a kernel file is a
// whole Python module: the host code around the kernels (try/except,
// classes, lambdas, match, async, ...) must parse even though only the
// kernels are built. Python's node kinds are merged where the kernel builder
// never needs the difference: list/set/dict comprehensions and generator
// expressions are one ListCompExpr, AsyncFunctionDef/AsyncFor/AsyncWith are
// flags, TryStar is a flag of Try, and `await`/`yield`/`yield from` (never
// kernel code) are one light HostOnlyExpr. The kernel builder rejects each
// host-only construct by the name `constructName` gives it.
//
// RTTI is LLVM style: every node has a `Kind` tag and a static `classof`, so
// `llvm::isa<BinOpExpr>(e)`, `llvm::dyn_cast<CallExpr>(e)` and
// `llvm::cast<...>` work (llvm/Support/Casting.h is header-only). A `switch`
// over `getKind()` is the other idiom.
//
// Ownership: a parent owns its children through std::unique_ptr (`ExprPtr`,
// `StmtPtr`); optional children are null. Nodes are immutable after parsing
// by convention (fields are public for simple construction and reading).
//
// Every node carries the SourceLoc of its first token (for a BinOp, of its
// left operand; for a Call, of the callee) and operator nodes also carry
// `opLoc`, the operator token, which is usually the better place for a caret.
//
// `dump(std::ostream&)` prints an s-expression form used by the tests, e.g.
//   (BinOp + (Name a) (BinOp * (Int 2) (Name b)))
//
//===----------------------------------------------------------------------===//
#ifndef TXL_FRONTEND_AST_H
#define TXL_FRONTEND_AST_H

#include "txl/Frontend/Diagnostics.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace txl {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr {
public:
  enum class Kind {
    Name,
    Constant,
    Tuple,
    List,
    Dict,
    Attribute,
    Subscript,
    Slice,
    Call,
    UnaryOp,
    BinOp,
    BoolOp,
    Compare,
    IfExp,
    Starred,
    ListComp,
    Set,
    Lambda,
    NamedExpr,
    JoinedStr,
    FormattedValue,
    HostOnly,
  };

  virtual ~Expr();
  Kind getKind() const { return kind; }
  SourceLoc getLoc() const { return loc; }

  /// Prints the s-expression form (see file comment), no newline.
  void dump(std::ostream &os) const;
  /// The s-expression form as a string.
  std::string str() const;

  SourceLoc loc;

protected:
  Expr(Kind kind, SourceLoc loc) : loc(loc), kind(kind) {}

private:
  const Kind kind;
};

using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

/// `x`, `tl`, `True`-like words are not names: True/False/None are Constants.
class NameExpr : public Expr {
public:
  NameExpr(SourceLoc loc, std::string id)
      : Expr(Kind::Name, loc), id(std::move(id)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

  std::string id;
};

/// A literal. Integers are int64. A decimal/hex literal in [2^63, 2^64) is
/// stored with its two's-complement bits in `intValue` and `isUnsigned64`
/// set (Triton types those as uint64); larger literals (valid in host code)
/// have `isTooLarge` set and their spelling in `stringValue`, and the kernel
/// builder rejects them. String prefixes r/b/f/u are accepted and
/// the text is kept verbatim (escape sequences are decoded unless `r`).
class ConstantExpr : public Expr {
public:
  /// `Complex` is an imaginary literal (`2j`); its value is `floatValue`.
  enum class ValueKind { Int, Float, Bool, None, String, Ellipsis, Complex };

  ConstantExpr(SourceLoc loc, ValueKind valueKind)
      : Expr(Kind::Constant, loc), valueKind(valueKind) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Constant; }

  static std::unique_ptr<ConstantExpr> makeInt(SourceLoc loc, int64_t v);
  static std::unique_ptr<ConstantExpr> makeFloat(SourceLoc loc, double v);
  static std::unique_ptr<ConstantExpr> makeBool(SourceLoc loc, bool v);
  static std::unique_ptr<ConstantExpr> makeNone(SourceLoc loc);
  static std::unique_ptr<ConstantExpr> makeString(SourceLoc loc, std::string v);

  bool isInt() const { return valueKind == ValueKind::Int; }
  bool isFloat() const { return valueKind == ValueKind::Float; }
  bool isBool() const { return valueKind == ValueKind::Bool; }
  bool isNone() const { return valueKind == ValueKind::None; }
  bool isString() const { return valueKind == ValueKind::String; }
  bool isBytes() const {
    return isString() && stringPrefix.find('b') != std::string::npos;
  }

  ValueKind valueKind;
  int64_t intValue = 0;
  bool isUnsigned64 = false;
  bool isTooLarge = false;
  double floatValue = 0.0;
  bool boolValue = false;
  std::string stringValue;
  /// For strings: which prefix letters were given ("", "r", "b", "f", "rb").
  std::string stringPrefix;
};

/// `(a, b)` or a bare `a, b` (also the index of `x[a, b]`).
class TupleExpr : public Expr {
public:
  TupleExpr(SourceLoc loc, ExprList elts)
      : Expr(Kind::Tuple, loc), elts(std::move(elts)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

  ExprList elts;
};

/// `[a, b]`.
class ListExpr : public Expr {
public:
  ListExpr(SourceLoc loc, ExprList elts)
      : Expr(Kind::List, loc), elts(std::move(elts)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }

  ExprList elts;
};

/// `{k: v, ...}` — appears in autotune configs (`triton.Config({...})`).
/// `{**d}` entries have a null key.
class DictExpr : public Expr {
public:
  DictExpr(SourceLoc loc, ExprList keys, ExprList values)
      : Expr(Kind::Dict, loc), keys(std::move(keys)),
        values(std::move(values)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }

  ExprList keys;
  ExprList values;
};

/// `value.attr`; `loc` is the value's start, `attrLoc` the attribute name.
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceLoc loc, ExprPtr value, std::string attr,
                SourceLoc attrLoc)
      : Expr(Kind::Attribute, loc), value(std::move(value)),
        attr(std::move(attr)), attrLoc(attrLoc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

  ExprPtr value;
  std::string attr;
  SourceLoc attrLoc;
};

/// `value[index]`. Several indices form a Tuple; slices are SliceExprs.
/// `opLoc` is the '['.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceLoc loc, ExprPtr value, ExprPtr index, SourceLoc opLoc)
      : Expr(Kind::Subscript, loc), value(std::move(value)),
        index(std::move(index)), opLoc(opLoc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

  ExprPtr value;
  ExprPtr index;
  SourceLoc opLoc;
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceLoc loc, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : Expr(Kind::Slice, loc), lower(std::move(lower)),
        upper(std::move(upper)), step(std::move(step)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

  ExprPtr lower;
  ExprPtr upper;
  ExprPtr step;
};

/// `name=value` in a call; `**value` has an empty name.
struct Keyword {
  SourceLoc loc;
  std::string name;
  ExprPtr value;
};

/// `func(args..., name=value...)`. Positional args may be StarredExprs.
/// The parser rejects a positional argument after a keyword argument.
class CallExpr : public Expr {
public:
  CallExpr(SourceLoc loc, ExprPtr func, ExprList args,
           std::vector<Keyword> keywords, SourceLoc opLoc)
      : Expr(Kind::Call, loc), func(std::move(func)), args(std::move(args)),
        keywords(std::move(keywords)), opLoc(opLoc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

  /// The keyword argument called `name`, or null.
  const Keyword *findKeyword(const std::string &name) const;

  ExprPtr func;
  ExprList args;
  std::vector<Keyword> keywords;
  SourceLoc opLoc; ///< the '('
};

enum class UnaryOpKind { Neg, Pos, Not, Invert };

class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(SourceLoc loc, UnaryOpKind op, ExprPtr operand)
      : Expr(Kind::UnaryOp, loc), op(op), operand(std::move(operand)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::UnaryOp; }

  UnaryOpKind op;
  ExprPtr operand; ///< loc is the operator's location (it comes first)
};

enum class BinOpKind {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMul,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor,
};

class BinOpExpr : public Expr {
public:
  BinOpExpr(SourceLoc loc, BinOpKind op, ExprPtr lhs, ExprPtr rhs,
            SourceLoc opLoc)
      : Expr(Kind::BinOp, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)), opLoc(opLoc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::BinOp; }

  BinOpKind op;
  ExprPtr lhs;
  ExprPtr rhs;
  SourceLoc opLoc;
};

enum class BoolOpKind { And, Or };

/// `a and b and c` is one BoolOp with three values (as in Python).
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SourceLoc loc, BoolOpKind op, ExprList values)
      : Expr(Kind::BoolOp, loc), op(op), values(std::move(values)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolOp; }

  BoolOpKind op;
  ExprList values;
};

enum class CmpOpKind { Lt, Le, Gt, Ge, Eq, NotEq, Is, IsNot, In, NotIn };

/// `a < b <= c`: left = a, ops = [<, <=], comparators = [b, c].
class CompareExpr : public Expr {
public:
  CompareExpr(SourceLoc loc, ExprPtr left, std::vector<CmpOpKind> ops,
              ExprList comparators, std::vector<SourceLoc> opLocs)
      : Expr(Kind::Compare, loc), left(std::move(left)), ops(std::move(ops)),
        comparators(std::move(comparators)), opLocs(std::move(opLocs)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }

  ExprPtr left;
  std::vector<CmpOpKind> ops;
  ExprList comparators;
  std::vector<SourceLoc> opLocs;
};

/// `body if test else orelse`.
class IfExpExpr : public Expr {
public:
  IfExpExpr(SourceLoc loc, ExprPtr test, ExprPtr body, ExprPtr orelse)
      : Expr(Kind::IfExp, loc), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};

/// `*value` in a call argument list, a tuple/list display or a target.
class StarredExpr : public Expr {
public:
  StarredExpr(SourceLoc loc, ExprPtr value)
      : Expr(Kind::Starred, loc), value(std::move(value)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Starred; }

  ExprPtr value;
};

/// `[async] for target in iter if cond...` inside a comprehension.
struct Comprehension {
  SourceLoc loc;
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
  bool isAsync = false;
};

/// Every comprehension: `[elt for ...]`, `{elt for ...}`, `{key: elt for
/// ...}` and the generator `(elt for ...)` (then `isGenerator` is set too).
/// Shows up in host-side autotune config lists; kernels rarely use it.
class ListCompExpr : public Expr {
public:
  enum class CompKind { List, Set, Dict, Generator };

  ListCompExpr(SourceLoc loc, ExprPtr elt,
               std::vector<Comprehension> generators, bool isGenerator)
      : Expr(Kind::ListComp, loc), elt(std::move(elt)),
        generators(std::move(generators)), isGenerator(isGenerator),
        compKind(isGenerator ? CompKind::Generator : CompKind::List) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::ListComp; }

  /// "list comprehension", "generator expression", ... for messages.
  const char *describe() const;

  ExprPtr elt; ///< the value of a dict comprehension
  std::vector<Comprehension> generators;
  bool isGenerator;
  CompKind compKind;
  ExprPtr key; ///< dict comprehensions only
};

/// `{a, b}` (a set display; `{}` is an empty Dict).
class SetExpr : public Expr {
public:
  SetExpr(SourceLoc loc, ExprList elts)
      : Expr(Kind::Set, loc), elts(std::move(elts)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Set; }

  ExprList elts;
};

/// One parameter of a `def` or `lambda`: `name: annotation = default`.
struct Arg {
  SourceLoc loc;
  std::string name;
  ExprPtr annotation;   ///< may be null (always null in a lambda)
  ExprPtr defaultValue; ///< may be null
};

/// A parameter list as Python's `ast.arguments`: `args` are the positional
/// parameters (the first `posOnlyCount` of them before a `/`), then
/// `*vararg`, the keyword-only parameters and `**kwarg`.
struct Parameters {
  std::vector<Arg> args;
  size_t posOnlyCount = 0;
  std::unique_ptr<Arg> vararg; ///< `*args`; null if none
  std::vector<Arg> kwOnlyArgs;
  std::unique_ptr<Arg> kwarg; ///< `**kwargs`; null if none

  /// The parameter called `name` (of any kind), or null.
  const Arg *findArg(const std::string &name) const;
  /// True if there is anything beyond plain positional parameters.
  bool hasStarParams() const { return vararg || kwarg || !kwOnlyArgs.empty(); }
};

/// `lambda params: body`.
class LambdaExpr : public Expr {
public:
  LambdaExpr(SourceLoc loc) : Expr(Kind::Lambda, loc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Lambda; }

  Parameters params;
  ExprPtr body;
};

/// `target := value` (the walrus); `opLoc` is the `:=`.
class NamedExpr : public Expr {
public:
  NamedExpr(SourceLoc loc, ExprPtr target, ExprPtr value, SourceLoc opLoc)
      : Expr(Kind::NamedExpr, loc), target(std::move(target)),
        value(std::move(value)), opLoc(opLoc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::NamedExpr; }

  ExprPtr target; ///< a Name
  ExprPtr value;
  SourceLoc opLoc;
};

/// An f-string (implicitly concatenated with its neighbours): string
/// Constants and FormattedValues in order, as Python's `ast.JoinedStr`.
class JoinedStrExpr : public Expr {
public:
  JoinedStrExpr(SourceLoc loc) : Expr(Kind::JoinedStr, loc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::JoinedStr; }

  ExprList values;
};

/// `{value!conversion:formatSpec}` inside an f-string. `{x=}` becomes the
/// Constant "x=" followed by a FormattedValue (conversion 'r' unless a
/// conversion or format spec was given), as in Python.
class FormattedValueExpr : public Expr {
public:
  FormattedValueExpr(SourceLoc loc, ExprPtr value)
      : Expr(Kind::FormattedValue, loc), value(std::move(value)) {}
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::FormattedValue;
  }

  ExprPtr value;
  char conversion = 0; ///< 0, 's', 'r' or 'a'
  ExprPtr formatSpec;  ///< a JoinedStr, or null
};

/// A host-only expression kept as a light node: `await x`, `yield x`,
/// `yield from x`. `construct` names it ("await expression", "yield
/// expression", "yield from expression"); `operands` are its parsed
/// subexpressions (a null value for a bare `yield`).
class HostOnlyExpr : public Expr {
public:
  HostOnlyExpr(SourceLoc loc, std::string construct, ExprList operands)
      : Expr(Kind::HostOnly, loc), construct(std::move(construct)),
        operands(std::move(operands)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::HostOnly; }

  std::string construct;
  ExprList operands;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind {
    FunctionDef,
    Assign,
    AugAssign,
    AnnAssign,
    If,
    For,
    While,
    Break,
    Continue,
    Return,
    Pass,
    ExprStmt,
    Assert,
    With,
    Import,
    ImportFrom,
    Global, ///< `global`/`nonlocal`: parsed, the builder rejects them
    ClassDef,
    Try,
    Raise,
    Delete,
    Match,
    TypeAlias,
  };

  virtual ~Stmt();
  Kind getKind() const { return kind; }
  SourceLoc getLoc() const { return loc; }

  /// Prints the s-expression form indented by `indent` spaces, one
  /// statement per line, ending with a newline.
  void dump(std::ostream &os, int indent = 0) const;
  std::string str() const;

  SourceLoc loc; ///< the first token of the statement

protected:
  Stmt(Kind kind, SourceLoc loc) : loc(loc), kind(kind) {}

private:
  const Kind kind;
};

using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// One PEP 695 type parameter: `T`, `T: bound`, `*Ts` or `**P`.
struct TypeParam {
  enum class Kind { TypeVar, TypeVarTuple, ParamSpec };
  SourceLoc loc;
  Kind kind = Kind::TypeVar;
  std::string name;
  ExprPtr bound; ///< may be null
};

/// `@dec... [async] def name[T](params) -> returns: body`. The parameters
/// (`args`, `vararg`, `kwOnlyArgs`, ...) come from `Parameters`; the kernel
/// builder accepts only plain positional ones. `loc` is the `def` keyword,
/// or the `async` before it (decorators have their own locations).
class FunctionDefStmt : public Stmt, public Parameters {
public:
  FunctionDefStmt(SourceLoc loc) : Stmt(Kind::FunctionDef, loc) {}
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::FunctionDef;
  }

  /// The docstring (first statement a string constant), or null.
  const ConstantExpr *getDocstring() const;

  std::string name;
  SourceLoc nameLoc;
  ExprList decorators; ///< full expressions: `triton.jit`, `txl.jit(...)`
  std::vector<TypeParam> typeParams;
  ExprPtr returns; ///< may be null
  StmtList body;
  bool isAsync = false;
};

/// `t1 = t2 = value`; a target may be a Tuple/List (unpacking), Name,
/// Attribute, Subscript or Starred. The parser rejects other targets.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceLoc loc, ExprList targets, ExprPtr value)
      : Stmt(Kind::Assign, loc), targets(std::move(targets)),
        value(std::move(value)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

  ExprList targets;
  ExprPtr value;
};

/// `target op= value`; target is a Name, Attribute or Subscript.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceLoc loc, ExprPtr target, BinOpKind op, ExprPtr value,
                SourceLoc opLoc)
      : Stmt(Kind::AugAssign, loc), target(std::move(target)), op(op),
        value(std::move(value)), opLoc(opLoc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
  SourceLoc opLoc;
};

/// `target: annotation [= value]`.
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(SourceLoc loc, ExprPtr target, ExprPtr annotation,
                ExprPtr value)
      : Stmt(Kind::AnnAssign, loc), target(std::move(target)),
        annotation(std::move(annotation)), value(std::move(value)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AnnAssign; }

  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value; ///< may be null
};

/// `if test: body else: orelse`; `elif` is a nested If alone in `orelse`
/// (with `isElif` set on the nested one).
class IfStmt : public Stmt {
public:
  IfStmt(SourceLoc loc, ExprPtr test)
      : Stmt(Kind::If, loc), test(std::move(test)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

  ExprPtr test;
  StmtList body;
  StmtList orelse;
  bool isElif = false;
};

/// `[async] for target in iter: body [else: orelse]` (the builder rejects
/// `else`).
class ForStmt : public Stmt {
public:
  ForStmt(SourceLoc loc, ExprPtr target, ExprPtr iter)
      : Stmt(Kind::For, loc), target(std::move(target)), iter(std::move(iter)) {
  }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

  ExprPtr target; ///< Name, or Tuple of targets
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
  SourceLoc elseLoc; ///< the `else` keyword, if any
  bool isAsync = false;
};

/// `while test: body [else: orelse]`.
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceLoc loc, ExprPtr test)
      : Stmt(Kind::While, loc), test(std::move(test)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

  ExprPtr test;
  StmtList body;
  StmtList orelse;
  SourceLoc elseLoc;
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceLoc loc) : Stmt(Kind::Break, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceLoc loc) : Stmt(Kind::Continue, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Continue; }
};

class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceLoc loc, ExprPtr value)
      : Stmt(Kind::Return, loc), value(std::move(value)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

  ExprPtr value; ///< may be null; `return a, b` is a Tuple
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceLoc loc) : Stmt(Kind::Pass, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
};

/// An expression evaluated for its effect (a call, or a docstring).
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceLoc loc, ExprPtr value)
      : Stmt(Kind::ExprStmt, loc), value(std::move(value)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::ExprStmt; }

  ExprPtr value;
};

/// `assert test[, msg]`.
class AssertStmt : public Stmt {
public:
  AssertStmt(SourceLoc loc, ExprPtr test, ExprPtr msg)
      : Stmt(Kind::Assert, loc), test(std::move(test)), msg(std::move(msg)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

  ExprPtr test;
  ExprPtr msg; ///< may be null
};

/// One `expr [as target]` of a `with`.
struct WithItem {
  ExprPtr contextExpr;
  ExprPtr optionalVars; ///< may be null
};

/// `[async] with a as b, c: body` (also the parenthesised item list).
class WithStmt : public Stmt {
public:
  explicit WithStmt(SourceLoc loc) : Stmt(Kind::With, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::With; }

  std::vector<WithItem> items;
  StmtList body;
  bool isAsync = false;
};

/// `a.b.c as d` in an import; `name` is the dotted path ("*" for
/// `from m import *`).
struct ImportAlias {
  SourceLoc loc;
  std::string name;
  std::string asname; ///< empty if none
};

/// `import a.b as c, d`.
class ImportStmt : public Stmt {
public:
  explicit ImportStmt(SourceLoc loc) : Stmt(Kind::Import, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Import; }

  std::vector<ImportAlias> names;
};

/// `from ..module import a as b, c`; `level` counts the leading dots.
class ImportFromStmt : public Stmt {
public:
  explicit ImportFromStmt(SourceLoc loc) : Stmt(Kind::ImportFrom, loc) {}
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::ImportFrom;
  }

  std::string module; ///< dotted, may be empty with level > 0
  int level = 0;
  std::vector<ImportAlias> names;
};

/// `global a, b` or `nonlocal a` (`isNonlocal`).
class GlobalStmt : public Stmt {
public:
  GlobalStmt(SourceLoc loc, std::vector<std::string> names, bool isNonlocal)
      : Stmt(Kind::Global, loc), names(std::move(names)),
        isNonlocal(isNonlocal) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Global; }

  std::vector<std::string> names;
  bool isNonlocal;
};

/// `@dec... class Name[T](bases, keywords): body`.
class ClassDefStmt : public Stmt {
public:
  ClassDefStmt(SourceLoc loc) : Stmt(Kind::ClassDef, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::ClassDef; }

  std::string name;
  SourceLoc nameLoc;
  ExprList decorators;
  std::vector<TypeParam> typeParams;
  ExprList bases; ///< may hold StarredExprs
  std::vector<Keyword> keywords;
  StmtList body;
};

/// `except [type [as name]]: body` (or `except*`).
struct ExceptHandler {
  SourceLoc loc;
  ExprPtr type; ///< null for a bare `except:`
  std::string name;
  StmtList body;
};

/// `try: body` with handlers, `else:` and `finally:`; `isStar` for
/// `except*` handlers (PEP 654).
class TryStmt : public Stmt {
public:
  explicit TryStmt(SourceLoc loc) : Stmt(Kind::Try, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Try; }

  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse;
  StmtList finalbody;
  bool isStar = false;
};

/// `raise [exc [from cause]]`.
class RaiseStmt : public Stmt {
public:
  RaiseStmt(SourceLoc loc, ExprPtr exc, ExprPtr cause)
      : Stmt(Kind::Raise, loc), exc(std::move(exc)), cause(std::move(cause)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Raise; }

  ExprPtr exc;   ///< may be null
  ExprPtr cause; ///< may be null
};

/// `del a, b[i], c.d`.
class DeleteStmt : public Stmt {
public:
  DeleteStmt(SourceLoc loc, ExprList targets)
      : Stmt(Kind::Delete, loc), targets(std::move(targets)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Delete; }

  ExprList targets;
};

/// A `case` pattern of a match statement, one struct for every kind (as
/// Python's `ast.pattern` subclasses):
///   Value        `value` (a dotted name, number, string, `-1`, `1+2j`)
///   Singleton    `value` (the Constant None/True/False)
///   Capture      `name`
///   Wildcard     `_`
///   Star         `*name` (`name` empty for `*_`)
///   Sequence     `[p, ...]` / `(p, ...)`: `patterns`
///   Mapping      `{key: p, ..., **rest}`: `keys`, `patterns`, `name`=rest
///   Class        `value(p, ..., kw=p)`: `patterns`, `kwdNames`, `kwdPatterns`
///   As           `patterns[0] as name`
///   Or           `p | p | ...`: `patterns`
struct Pattern {
  enum class Kind {
    Value,
    Singleton,
    Capture,
    Wildcard,
    Star,
    Sequence,
    Mapping,
    Class,
    As,
    Or
  };
  Kind kind = Kind::Wildcard;
  SourceLoc loc;
  ExprPtr value;
  std::string name;
  std::vector<Pattern> patterns;
  ExprList keys;
  std::vector<std::string> kwdNames;
  std::vector<Pattern> kwdPatterns;
};

/// `case pattern [if guard]: body`.
struct MatchCase {
  SourceLoc loc;
  Pattern pattern;
  ExprPtr guard; ///< may be null
  StmtList body;
};

/// `match subject: case ...` (PEP 634).
class MatchStmt : public Stmt {
public:
  MatchStmt(SourceLoc loc, ExprPtr subject)
      : Stmt(Kind::Match, loc), subject(std::move(subject)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Match; }

  ExprPtr subject;
  std::vector<MatchCase> cases;
};

/// `type Name[T] = value` (PEP 695).
class TypeAliasStmt : public Stmt {
public:
  TypeAliasStmt(SourceLoc loc) : Stmt(Kind::TypeAlias, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::TypeAlias; }

  std::string name;
  std::vector<TypeParam> typeParams;
  ExprPtr value;
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// A whole source file.
class Module {
public:
  /// The top-level `def` called `name` (the last one if redefined), or null.
  const FunctionDefStmt *findFunction(const std::string &name) const;
  /// All top-level `def`s in source order.
  std::vector<const FunctionDefStmt *> getFunctions() const;

  /// "(Module\n  stmt...\n)\n".
  void dump(std::ostream &os) const;
  std::string str() const;

  std::string fileName;
  StmtList body;
};

/// What a construct is called in "'<construct>' is not supported in a
/// kernel": "try statement", "lambda", "set display", ...
std::string constructName(const Stmt &s);
std::string constructName(const Expr &e);

/// Spellings used by dump and for messages: "+", "//", "not in", "not", ...
const char *spelling(UnaryOpKind op);
const char *spelling(BinOpKind op);
const char *spelling(BoolOpKind op);
const char *spelling(CmpOpKind op);

} // namespace txl

#endif // TXL_FRONTEND_AST_H
