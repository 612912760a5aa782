"""@txl.jit: Triton-style kernels compiled by libtxl and launched through it.

    @txl.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        ...
    add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)

The launch path is: a generated binder turns the call's arguments into a
specialization key and the runtime values in one pass; the key finds a
Launcher (compiled on a miss); the Launcher packs the values and calls
txl_launch.
"""

import ast
import inspect
import json
import os
import sys
import types

from . import _capi
from . import _specialize
from ._launcher import Launcher, match_params, parse_metadata

# Launch options accepted as keyword arguments, with their defaults.
LAUNCH_OPTIONS = ("num_warps", "num_warpgroups", "num_stages", "num_ctas",
                  "maxnreg")
DEFAULT_OPTIONS = {"num_warps": 4, "num_warpgroups": 1, "num_stages": 3,
                   "num_ctas": 1, "maxnreg": 0}


def is_constexpr_annotation(annotation):
    """True for tl.constexpr from txl or triton, or the string form."""
    if annotation is inspect.Parameter.empty:
        return False
    if isinstance(annotation, str):
        return annotation.split(".")[-1] == "constexpr"
    return getattr(annotation, "__name__", None) == "constexpr"


class KernelParam:
    def __init__(self, index, parameter, do_not_specialize):
        self.index = index
        self.name = parameter.name
        self.is_constexpr = is_constexpr_annotation(parameter.annotation)
        self.default = parameter.default
        self.do_not_specialize = do_not_specialize


_KERNEL_SAFE_NODES = (ast.Constant, ast.Name, ast.Attribute, ast.Call,
                      ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.keyword,
                      ast.Load, ast.operator, ast.unaryop, ast.BoolOp,
                      ast.boolop, ast.Compare, ast.cmpop, ast.Subscript)


def _is_jit_decorator(node):
    text = ast.unparse(node)
    return "jit" in text or "autotune" in text or "heuristics" in text


def _compiler_needs(stmt):
    """Whether a top-level statement is for the kernel compiler: imports,
    jit functions and plain constant assignments. Host code (lambdas, classes,
    `if __name__ == ...`, benchmarks) is not, and may use Python the kernel
    language lacks."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(stmt, ast.FunctionDef):
        return any(_is_jit_decorator(d) for d in stmt.decorator_list)
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value:
        return all(isinstance(n, _KERNEL_SAFE_NODES + (ast.expr_context,))
                   for n in ast.walk(stmt.value))
    return False


def kernel_source(text):
    """`text` with every top-level statement the compiler does not need
    replaced by blank lines, so that line:col in diagnostics stay exact."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text  # the compiler reports it with its own location
    lines = text.splitlines(keepends=True)
    keep = set()
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in
                                     getattr(stmt, "decorator_list", [])])
        if _compiler_needs(stmt):
            keep.update(range(first, stmt.end_lineno + 1))
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in
                                     getattr(stmt, "decorator_list", [])])
        if not _compiler_needs(stmt):
            for line in range(first, stmt.end_lineno + 1):
                if line not in keep:
                    lines[line - 1] = "\n"
    return "".join(lines)


def _module_source(fn):
    """The kernel-relevant text of the file defining `fn` (the compiler sees
    the module's helpers, constants and imports; host code is blanked out)
    and its file name."""
    path = inspect.getsourcefile(fn)
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return kernel_source(f.read()), path
    # Defined in a REPL or exec(): only the function's own text exists.
    import textwrap
    return textwrap.dedent(inspect.getsource(fn)), path or "<unknown>"


def _referenced_names(code, seen=None):
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _referenced_names(const)
    return names


def collect_globals(fn, _visited=None):
    """{name: source text} of module-level values `fn` (and the @txl.jit
    helpers it calls) may read: numbers, bools, dtypes, constexprs, layouts.
    """
    visited = _visited if _visited is not None else set()
    if fn in visited:
        return {}
    visited.add(fn)
    found = {}
    scope = fn.__globals__
    for name in sorted(_referenced_names(fn.__code__)):
        if name not in scope:
            continue
        value = scope[name]
        if isinstance(value, JITFunction):
            found.update(collect_globals(value.fn, visited))
            continue
        text = _specialize.global_text(value)
        if text is not None:
            found[name] = text
    return found


def _inline_arg(name, i):
    """Source lines computing (e{i}, v{i}) = _specialize.arg(name) with the
    common cases (small ints, floats, tensors seen before) inlined: a
    Python call per argument is a noticeable part of the launch cost."""
    return [
        f"    if {name}.__class__ is _int:",
        f"        v{i} = {name}",
        f"        if {name} == 1: e{i} = 'i32:1'",
        f"        elif -2147483648 <= {name} <= 2147483647:",
        f"            e{i} = 'i32' if {name} & 15 else 'i32:16'",
        f"        else: e{i} = _int_entry({name}, True)",
        f"    elif {name}.__class__ is _float:",
        f"        e{i} = 'fp32'; v{i} = {name}",
        f"    else:",
        f"        try:",
        f"            v{i} = {name}.data_ptr()",
        f"            e{i} = _ptr_entries[{name}.dtype][not v{i} & 15]",
        f"        except Exception:",
        f"            e{i}, v{i} = _arg({name})",
    ]


class JITFunction:
    """A kernel. Launch with ``kernel[grid](*args, **kwargs)``."""

    def __init__(self, fn, do_not_specialize=(), **default_options):
        fn = getattr(fn, "fn", fn)  # accept a triton.jit-wrapped function
        if not isinstance(fn, types.FunctionType):
            raise TypeError("txl.jit expects a Python function")
        unknown = set(default_options) - set(DEFAULT_OPTIONS) - {"debug"}
        if unknown:
            raise TypeError(f"txl.jit: unknown options {sorted(unknown)}")
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self.options = dict(DEFAULT_OPTIONS)
        self.options.update({k: v for k, v in default_options.items()
                             if k in DEFAULT_OPTIONS})
        sig = inspect.signature(fn)
        dns = set(do_not_specialize)
        self.params = [KernelParam(i, p, p.name in dns or i in dns)
                       for i, p in enumerate(sig.parameters.values())]
        self.arg_names = [p.name for p in self.params]
        self.runtime_params = [p for p in self.params if not p.is_constexpr]
        self.runtime_names = [p.name for p in self.runtime_params]
        self.option_names = [o for o in LAUNCH_OPTIONS
                             if o not in self.arg_names]
        self._binder, self._meta_binder = self._make_binders()
        self.cache = {}  # specialization key -> Launcher
        self._source = None
        self._globals = None

    # -- binding ------------------------------------------------------------
    def _make_binders(self):
        """Generates two functions with the kernel's own parameter list:
        `bind` returns (key, runtime values) and `meta` the dict a grid
        callable receives. Python's argument binding does the matching of
        positional/keyword arguments and defaults in C."""
        namespace = {"_arg": _specialize.arg,
                     "_arg_nospec": _specialize.arg_nospec,
                     "_int_entry": _specialize._int_entry,
                     "_ptr_entries": _specialize._pointer_entries,
                     "_int": int, "_float": float}
        params = []
        for p in self.params:
            if p.default is inspect.Parameter.empty:
                params.append(p.name)
            else:
                namespace[f"_default_{p.index}"] = p.default
                params.append(f"{p.name}=_default_{p.index}")
        options = [f"{o}=None" for o in self.option_names]
        signature = ", ".join(params + (["*"] + options if options else []))
        lines = [f"def bind({signature}):"]
        entries, values = [], []
        for p in self.runtime_params:
            if p.do_not_specialize:
                lines.append(f"    e{p.index}, v{p.index} = _arg_nospec({p.name})")
            else:
                lines += _inline_arg(p.name, p.index)
            entries.append(f"e{p.index}")
            values.append(f"v{p.index}")
        key = entries + [f"{p.name}.__class__, {p.name}"
                         for p in self.params if p.is_constexpr]
        key += self.option_names
        lines.append(f"    return ({', '.join(key)},), ({', '.join(values)},)")
        lines.append(f"def meta({signature}):")
        items = [f"{n!r}: {n}" for n in self.arg_names + self.option_names]
        lines.append(f"    return {{{', '.join(items)}}}")
        exec(compile("\n".join(lines), f"<txl binder for {self.__name__}>",
                     "exec"), namespace)
        return namespace["bind"], namespace["meta"]

    # -- launching ----------------------------------------------------------
    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid, args, kwargs)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"{self.__name__} is a txl kernel: launch it with "
            f"{self.__name__}[grid](...)")

    def run(self, grid, args, kwargs, stream=None):
        # The hot path: one generated call, one dict lookup, one packed
        # foreign call. Anything unusual goes to _run_slow.
        try:
            key, values = self._binder(*args, **kwargs)
            launcher = self.cache[key]
        except (KeyError, TypeError):
            return self._run_slow(grid, args, kwargs, stream)
        if grid.__class__ is not tuple:
            grid = tuple(grid(self._meta(args, kwargs))) if callable(grid) \
                else tuple(grid)
        if len(grid) != 1:
            grid = (grid + (1, 1))[:3]
            launcher.launch(grid[0], grid[1], grid[2],
                            _stream() if stream is None else stream, values)
        else:
            launcher.launch(grid[0], 1, 1,
                            _stream() if stream is None else stream, values)
        return launcher

    def _run_slow(self, grid, args, kwargs, stream):
        """First launch of a key (compiles), unhashable constexprs, and
        argument errors with a readable message."""
        try:
            key, values = self._binder(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}[grid](...): {e}") from None
        try:
            launcher = self.cache.get(key)
        except TypeError:  # an unhashable constexpr value
            key = tuple(map(repr, key))
            launcher = self.cache.get(key)
        if launcher is None:
            launcher = self._compile_for(key, args, kwargs)
        if callable(grid):
            grid = grid(self._meta(args, kwargs))
        grid = (tuple(grid) + (1, 1))[:3]
        launcher.launch(grid[0], grid[1], grid[2],
                        _stream() if stream is None else stream, values)
        return launcher

    def _meta(self, args, kwargs):
        meta = self._meta_binder(*args, **kwargs)
        for name in self.option_names:
            if meta[name] is None:
                meta[name] = self.options[name]
        return meta

    # -- compiling ----------------------------------------------------------
    def specialization(self, args, kwargs):
        """(signature string, options dict) for these call arguments."""
        meta = self._meta(args, kwargs)
        key, _ = self._binder(*args, **kwargs)
        entries = iter(key[:len(self.runtime_params)])
        parts = []
        for p in self.params:
            if p.is_constexpr:
                parts.append(_specialize.constexpr_text(meta[p.name]))
            else:
                parts.append(next(entries))
        options = {o: meta[o] if o in meta else self.options[o]
                   for o in LAUNCH_OPTIONS}
        return ",".join(parts), options, list(key[:len(self.runtime_params)])

    def source(self):
        if self._source is None:
            self._source = _module_source(self.fn)
        return self._source

    def globals_text(self):
        if self._globals is None:
            self._globals = collect_globals(self.fn)
        return self._globals

    def options_json(self, options, target=None):
        payload = {k: int(v) for k, v in options.items()}
        payload["globals"] = self.globals_text()
        if target:
            payload["target"] = target
        return json.dumps(payload, sort_keys=True)

    def _compile_for(self, key, args, kwargs):
        signature, options, entries = self.specialization(args, kwargs)
        source, filename = self.source()
        handle = _capi.compile(source, filename, self.__name__, signature,
                               self.options_json(options))
        try:
            metadata = parse_metadata(_capi.kernel_metadata(handle))
            picks = match_params(metadata, self.runtime_names, entries)
            launcher = Launcher(handle, metadata, picks,
                                len(self.runtime_params))
        except BaseException:
            _capi.kernel_free(handle)
            raise
        self.cache[key] = launcher
        return launcher

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles for these arguments without launching; returns the
        Launcher (its .metadata describes the kernel)."""
        key, _ = self._binder(*args, **kwargs)
        return self.cache.get(key) or self._compile_for(key, args, kwargs)

    def __repr__(self):
        return f"JITFunction({self.fn.__module__}:{self.__name__})"


def jit(fn=None, *, do_not_specialize=(), **options):
    """Decorator: ``@txl.jit`` or ``@txl.jit(num_warps=8, ...)``."""
    if fn is None:
        return lambda f: JITFunction(f, do_not_specialize, **options)
    return JITFunction(fn, do_not_specialize, **options)


def _stream():
    """The current torch CUDA stream handle (0 = the legacy default
    stream) or None without torch. Rebinds itself to a two-C-call getter the
    first time torch is seen."""
    global _stream
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    get_device = getattr(torch._C, "_cuda_getDevice", None)
    if not torch.cuda.is_available():
        return None
    if raw is not None and get_device is not None:
        torch.cuda.init()  # the C getters assume CUDA is initialized
        _stream = lambda: raw(get_device())  # noqa: E731
    else:
        _stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa
    return _stream()


def current_stream():
    return _stream()
