#!/usr/bin/env python3
"""Compares txl's syntax tree with CPython's for each Python file given.

Prints the s-expression txl's front end dumps (AST.cpp) as CPython's `ast`
would give it, runs `txl-parser-fuzz --dump` on the same files, and reports
every file where the two disagree: CPython accepts and txl rejects (or the
reverse), or both parse and the trees differ. String prefixes are not
compared (CPython's ast drops them). Needs the Python that runs this script
to understand the files (CPython 3.12 for 3.12-only syntax).

usage: compare_with_cpython.py [--txl build/bin/txl-parser-fuzz] FILE...
"""
import ast
import re
import subprocess
import sys
import warnings

BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
          ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@",
          ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|",
          ast.BitXor: "^"}
UNOPS = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
          ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
          ast.NotIn: "not in"}


def fmt_double(d):
    if d != d:
        return "nan"
    for p in range(1, 18):
        s = "%.*g" % (p, d)
        if float(s) == d:
            break
    return s.replace("inf", "inf")


def quote(b):
    out = b'"'
    for c in b:
        if c in (ord('"'), ord('\\')):
            out += b'\\' + bytes([c])
        elif c == 10:
            out += b'\\n'
        elif c < 0x20 or c == 0x7F:
            out += b'\\x%02x' % c
        else:
            out += bytes([c])
    return out.decode('utf-8', 'surrogateescape') + '"'


def opt(e):
    return "_" if e is None else ex(e)


def const(v):
    if v is None:
        return "(None)"
    if v is True or v is False:
        return "(Bool %s)" % v
    if v is Ellipsis:
        return "(Ellipsis)"
    if isinstance(v, int):
        if v >= 2**64:
            return "(Int big)"
        if v >= 2**63:
            return "(Int %d u64)" % v
        return "(Int %d)" % v
    if isinstance(v, float):
        return "(Float %s)" % fmt_double(v)
    if isinstance(v, complex):
        return "(Complex %sj)" % fmt_double(v.imag)
    if isinstance(v, bytes):
        return "(Str %s)" % quote(v)
    return "(Str %s)" % quote(v.encode('utf-8', 'surrogatepass'))


def params(a, sep):
    out = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + a.defaults
    for i, (p, d) in enumerate(zip(pos, defaults)):
        out.append("(arg %s %s %s)" % (p.arg, opt(p.annotation), opt(d)))
        if i + 1 == len(a.posonlyargs):
            out.append("(/)")
    if a.vararg:
        out.append("(*arg %s %s _)" % (a.vararg.arg, opt(a.vararg.annotation)))
    elif a.kwonlyargs:
        out.append("(*)")
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append("(kwonly %s %s %s)" % (p.arg, opt(p.annotation), opt(d)))
    if a.kwarg:
        out.append("(**arg %s %s _)" % (a.kwarg.arg, opt(a.kwarg.annotation)))
    return "".join(sep + o for o in out)


def kws(keywords):
    return "".join(" (kw %s %s)" % (k.arg or "**", ex(k.value)) for k in keywords)


def comp(kind, parts, gens):
    s = "(" + kind + " " + " ".join(ex(p) for p in parts)
    for g in gens:
        s += " (%s %s %s" % ("async-for" if g.is_async else "for", ex(g.target),
                             ex(g.iter))
        for c in g.ifs:
            s += " (if %s)" % ex(c)
        s += ")"
    return s + ")"


def ex(e):
    t = type(e)
    if t is ast.Name:
        return "(Name %s)" % e.id
    if t is ast.Constant:
        return const(e.value)
    if t in (ast.Tuple, ast.List, ast.Set):
        return "(%s%s)" % (t.__name__, "".join(" " + ex(x) for x in e.elts))
    if t is ast.Dict:
        return "(Dict%s)" % "".join(
            " (: %s %s)" % (ex(k), ex(v)) if k is not None else " (** %s)" % ex(v)
            for k, v in zip(e.keys, e.values))
    if t is ast.Attribute:
        return "(Attr %s %s)" % (ex(e.value), e.attr)
    if t is ast.Subscript:
        return "(Subscript %s %s)" % (ex(e.value), ex(e.slice))
    if t is ast.Slice:
        return "(Slice %s %s %s)" % (opt(e.lower), opt(e.upper), opt(e.step))
    if t is ast.Call:
        return "(Call %s%s%s)" % (ex(e.func), "".join(" " + ex(a) for a in e.args),
                                  kws(e.keywords))
    if t is ast.UnaryOp:
        return "(UnaryOp %s %s)" % (UNOPS[type(e.op)], ex(e.operand))
    if t is ast.BinOp:
        return "(BinOp %s %s %s)" % (BINOPS[type(e.op)], ex(e.left), ex(e.right))
    if t is ast.BoolOp:
        return "(BoolOp %s%s)" % ("and" if type(e.op) is ast.And else "or",
                                  "".join(" " + ex(v) for v in e.values))
    if t is ast.Compare:
        return "(Compare %s%s)" % (ex(e.left), "".join(
            " %s %s" % (CMPOPS[type(o)], ex(c)) for o, c in zip(e.ops, e.comparators)))
    if t is ast.IfExp:
        return "(IfExp %s %s %s)" % (ex(e.test), ex(e.body), ex(e.orelse))
    if t is ast.Starred:
        return "(Starred %s)" % ex(e.value)
    if t is ast.ListComp:
        return comp("ListComp", [e.elt], e.generators)
    if t is ast.SetComp:
        return comp("SetComp", [e.elt], e.generators)
    if t is ast.GeneratorExp:
        return comp("GenExp", [e.elt], e.generators)
    if t is ast.DictComp:
        return comp("DictComp", [e.key, e.value], e.generators)
    if t is ast.Lambda:
        return "(Lambda%s %s)" % (params(e.args, " "), ex(e.body))
    if t is ast.NamedExpr:
        return "(NamedExpr %s %s)" % (ex(e.target), ex(e.value))
    if t is ast.JoinedStr:
        return "(JoinedStr%s)" % "".join(" " + ex(v) for v in e.values)
    if t is ast.FormattedValue:
        s = "(FormattedValue " + ex(e.value)
        if e.conversion != -1:
            s += " !" + chr(e.conversion)
        if e.format_spec is not None:
            s += " :" + ex(e.format_spec)
        return s + ")"
    if t is ast.Await:
        return '(HostOnly "await" %s)' % ex(e.value)
    if t is ast.Yield:
        return '(HostOnly "yield" %s)' % opt(e.value)
    if t is ast.YieldFrom:
        return '(HostOnly "yield from" %s)' % ex(e.value)
    raise ValueError("unknown expression " + t.__name__)


def pattern(p):
    t = type(p)
    if t is ast.MatchValue:
        return "(PValue %s)" % ex(p.value)
    if t is ast.MatchSingleton:
        return "(PSingleton %s)" % const(p.value)
    if t is ast.MatchAs:
        if p.pattern is None:
            return "(PCapture %s)" % p.name if p.name else "(PWildcard)"
        return "(PAs %s %s)" % (pattern(p.pattern), p.name)
    if t is ast.MatchStar:
        return "(PStar %s)" % (p.name or "_")
    if t is ast.MatchSequence:
        return "(PSequence%s)" % "".join(" " + pattern(x) for x in p.patterns)
    if t is ast.MatchOr:
        return "(POr%s)" % "".join(" " + pattern(x) for x in p.patterns)
    if t is ast.MatchMapping:
        s = "(PMapping" + "".join(" (: %s %s)" % (ex(k), pattern(v))
                                  for k, v in zip(p.keys, p.patterns))
        if p.rest:
            s += " (** %s)" % p.rest
        return s + ")"
    if t is ast.MatchClass:
        return "(PClass %s%s%s)" % (ex(p.cls), "".join(" " + pattern(x) for x in p.patterns),
                                    "".join(" (kw %s %s)" % (n, pattern(x))
                                            for n, x in zip(p.kwd_attrs, p.kwd_patterns)))
    raise ValueError("unknown pattern " + t.__name__)


def type_params(node):
    marks = {"TypeVar": "", "TypeVarTuple": "*", "ParamSpec": "**"}
    out = ""
    for tp in getattr(node, "type_params", []) or []:
        out += " (typeparam %s%s" % (marks[type(tp).__name__], tp.name)
        if getattr(tp, "bound", None) is not None:
            out += " " + ex(tp.bound)
        out += ")"
    return out


def block(label, body, ind):
    return " " * ind + label + ":\n" + "".join(st(s, ind + 2) for s in body)


def aliases(names):
    return "".join(" " + a.name + (" as " + a.asname if a.asname else "") for a in names)


def st(s, ind):
    pad = " " * ind
    t = type(s)
    simple = None
    if t is ast.Assign:
        simple = "(Assign%s = %s)" % ("".join(" " + ex(x) for x in s.targets), ex(s.value))
    elif t is ast.AugAssign:
        simple = "(AugAssign %s %s= %s)" % (ex(s.target), BINOPS[type(s.op)], ex(s.value))
    elif t is ast.AnnAssign:
        simple = "(AnnAssign %s %s %s)" % (ex(s.target), ex(s.annotation), opt(s.value))
    elif t in (ast.Break, ast.Continue, ast.Pass):
        simple = "(%s)" % t.__name__
    elif t is ast.Return:
        simple = "(Return %s)" % opt(s.value)
    elif t is ast.Expr:
        simple = "(Expr %s)" % ex(s.value)
    elif t is ast.Assert:
        simple = "(Assert %s %s)" % (ex(s.test), opt(s.msg))
    elif t is ast.Import:
        simple = "(Import%s)" % aliases(s.names)
    elif t is ast.ImportFrom:
        simple = "(ImportFrom %s%s%s)" % ("." * s.level, s.module or "", aliases(s.names))
    elif t in (ast.Global, ast.Nonlocal):
        simple = "(%s%s)" % (t.__name__, "".join(" " + n for n in s.names))
    elif t is ast.Raise:
        simple = "(Raise %s %s)" % (opt(s.exc), opt(s.cause))
    elif t is ast.Delete:
        simple = "(Delete%s)" % "".join(" " + ex(x) for x in s.targets)
    elif getattr(ast, "TypeAlias", None) is t:
        simple = "(TypeAlias %s%s %s)" % (s.name.id, type_params(s), ex(s.value))
    if simple is not None:
        return pad + simple + "\n"
    p2 = " " * (ind + 2)
    out = pad
    if t in (ast.FunctionDef, ast.AsyncFunctionDef):
        out += "(%s %s%s\n" % ("AsyncFunctionDef" if t is ast.AsyncFunctionDef
                               else "FunctionDef", s.name, type_params(s))
        out += "".join(p2 + "(decorator %s)\n" % ex(d) for d in s.decorator_list)
        ps = params(s.args, "\n" + p2)
        if ps:
            out += ps[1:] + "\n"
        if s.returns is not None:
            out += p2 + "(returns %s)\n" % ex(s.returns)
        out += block("body", s.body, ind + 2)
    elif t is ast.If:
        out += "(If %s\n" % ex(s.test)
        out += block("body", s.body, ind + 2)
        if s.orelse:
            out += block("orelse", s.orelse, ind + 2)
    elif t in (ast.For, ast.AsyncFor):
        out += "(%s %s %s\n" % ("AsyncFor" if t is ast.AsyncFor else "For",
                                ex(s.target), ex(s.iter))
        out += block("body", s.body, ind + 2)
        if s.orelse:
            out += block("orelse", s.orelse, ind + 2)
    elif t is ast.While:
        out += "(While %s\n" % ex(s.test)
        out += block("body", s.body, ind + 2)
        if s.orelse:
            out += block("orelse", s.orelse, ind + 2)
    elif t in (ast.With, ast.AsyncWith):
        out += "(%s%s\n" % ("AsyncWith" if t is ast.AsyncWith else "With", "".join(
            " (item %s %s)" % (ex(i.context_expr), opt(i.optional_vars)) for i in s.items))
        out += block("body", s.body, ind + 2)
    elif t is ast.ClassDef:
        out += "(ClassDef %s%s%s%s\n" % (s.name, type_params(s),
                                         "".join(" " + ex(b) for b in s.bases), kws(s.keywords))
        out += "".join(p2 + "(decorator %s)\n" % ex(d) for d in s.decorator_list)
        out += block("body", s.body, ind + 2)
    elif t is ast.Try or t.__name__ == "TryStar":
        out += "(TryStar\n" if t.__name__ == "TryStar" else "(Try\n"
        out += block("body", s.body, ind + 2)
        for h in s.handlers:
            out += p2 + "(except %s %s\n" % (opt(h.type), h.name or "_")
            out += block("body", h.body, ind + 4)
            out += p2 + ")\n"
        if s.orelse:
            out += block("orelse", s.orelse, ind + 2)
        if s.finalbody:
            out += block("finally", s.finalbody, ind + 2)
    elif t is ast.Match:
        out += "(Match %s\n" % ex(s.subject)
        for c in s.cases:
            out += p2 + "(case " + pattern(c.pattern)
            if c.guard is not None:
                out += " (if %s)" % ex(c.guard)
            out += "\n" + block("body", c.body, ind + 4) + p2 + ")\n"
    else:
        raise ValueError("unknown statement " + t.__name__)
    return out + pad + ")\n"


def cpython_dump(src):
    with warnings.catch_warnings():  # "1if x else 2" warns, and is valid
        warnings.simplefilter("ignore")
        tree = ast.parse(src)
    return "(Module\n" + "".join(st(s, 2) for s in tree.body) + ")\n"


def elif_as_if(dump):
    """CPython does not tell `elif` from `else: if`; txl dumps (Elif ...)."""
    return re.sub(r"^( *)\(Elif ", r"\1(If ", dump, flags=re.M)


def normalize(dump):
    # String prefixes are not in CPython's tree; txl keeps the spelling of
    # an integer too large for 64 bits.
    dump = re.sub(r'\(Int [^ ()]* big\)', '(Int big)', dump)
    # CPython 3.12.1 ends some f-string format specs with an empty Constant.
    dump = dump.replace(') (Str ""))', '))')
    return re.sub(r'\(Str [a-z]*"', '(Str "', dump)


def main(argv):
    txl = "build/bin/txl-parser-fuzz"
    if len(argv) > 2 and argv[1] == "--txl":
        txl, argv = argv[2], argv[2:]
    files = argv[1:]
    bad = 0
    for f in files:
        data = open(f, "rb").read()
        try:
            want = cpython_dump(data)
            want_ok = True
        except SyntaxError as e:
            want_ok, want = False, str(e)
        except (ValueError, RecursionError, MemoryError) as e:
            print("%s: skipped (%s)" % (f, e))
            continue
        out = subprocess.run([txl, "--dump", f], capture_output=True).stdout
        out = out.decode("utf-8", "surrogateescape")
        first, _, got = out.partition("\n")
        got_ok = first.endswith(": ok")
        if want_ok != got_ok:
            bad += 1
            print("%s: CPython %s, txl %s" % (f, "accepts" if want_ok else "rejects (" + want + ")",
                                              "accepts" if got_ok else "rejects: " + first))
            continue
        if not want_ok:
            continue
        # CPython does not tell `elif` from `else: if`; txl marks Elif.
        got = elif_as_if(got)
        if normalize(got) != normalize(want):
            bad += 1
            g, w = normalize(got).splitlines(), normalize(want).splitlines()
            for i, (a, b) in enumerate(zip(g, w)):
                if a != b:
                    print("%s: trees differ at dump line %d\n  txl:     %s\n  CPython: %s"
                          % (f, i + 1, a[:300], b[:300]))
                    break
            else:
                print("%s: trees differ in length" % f)
    print("%d files, %d disagreements" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
