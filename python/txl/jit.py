"""@txl.jit: Triton-style kernels compiled by libtxl and launched through it.

    @txl.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        ...
    add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)

The launch path: kernel[grid] is a bound method of a function generated for
the kernel's own parameter list, which turns the arguments into a
specialization key and the runtime values in one pass; the key finds a
Launcher (compiled on a miss), whose own generated function packs the values
into the launch packet and calls txl_launch_packed.
bench/bench_launch_cpu.py measures this path without a GPU.
"""

import ast
import builtins
import functools
import inspect
import json
import os
import sys
import types
import warnings
import weakref

from . import _capi
from . import tensor_descriptor as _tensor_descriptor
from . import _pass_diff
from . import _specialize
from ._kernel_info import warning_lines
from ._launcher import Launcher, match_params, parse_metadata

_MethodType = types.MethodType

# Launch options accepted as keyword arguments, with their defaults
# (docs/user-guide.md#launch-options describes each).
LAUNCH_OPTIONS = ("num_warps", "num_warpgroups", "num_stages", "num_ctas",
                  "maxnreg", "enable_fp_fusion", "enable_reflect_ftz")
# The launch options that are flags (JSON booleans for the compiler).
FLAG_OPTIONS = ("enable_fp_fusion", "enable_reflect_ftz")
# @txl.jit(diff_mode=, diff_select=, log_dir=, src_file=): see _pass_diff;
# dump_locations=True prints source locations in the IR artifacts (the
# viewer, kernel.html(), then maps IR rows to lines too).
DEBUG_OPTIONS = ("diff_mode", "diff_select", "log_dir", "src_file",
                 "dump_locations")
# Launch keyword arguments that change the compile but are not launch
# options: Triton's extern_libs={"libdevice": path} (the libdevice to link;
# a dict, so such launches take the slower, repr-keyed cache path).
COMPILE_KWARGS = ("extern_libs",)
DEFAULT_OPTIONS = {"num_warps": 4, "num_warpgroups": 1, "num_stages": 3,
                   "num_ctas": 1, "maxnreg": 0, "enable_fp_fusion": True,
                   "enable_reflect_ftz": True}


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


def _decorator_name(node):
    """The last name of a decorator's callee: `triton.autotune(...)` ->
    "autotune"; None for other expressions."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _is_jit_decorator(node):
    """A decorator of a kernel: the jit marker, autotune or heuristics (not
    a decorator that merely mentions them, e.g. pytest.mark.parametrize
    over strings naming "jit")."""
    name = _decorator_name(node) or ""
    return "jit" in name or name in ("autotune", "heuristics")


def _is_jit_marker(node):
    """`@jit`, `@txl.jit`, `@triton.jit(...)`: what marks a kernel for the
    compiler (other decorators, autotune's configs say, are host code)."""
    if isinstance(node, ast.Call):
        node = node.func
    return (isinstance(node, ast.Name) and node.id == "jit") or (
        isinstance(node, ast.Attribute) and node.attr == "jit")


def _blank_host_decorators(stmt, lines):
    """Blanks the decorators of a kept function other than its jit marker:
    autotune configs and heuristics lambdas are host code."""
    marker_rows = set()
    for d in stmt.decorator_list:
        if _is_jit_marker(d):
            marker_rows.update(range(d.lineno, d.end_lineno + 1))
    for d in stmt.decorator_list:
        rows = range(d.lineno - 1, d.end_lineno + 1)  # with its '@' line
        if not _is_jit_marker(d) and not marker_rows.intersection(rows):
            for r in range(d.lineno, d.end_lineno + 1):
                lines[r - 1] = ""  # lines are joined with "\n" later


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


def _try_imports(stmt, lines):
    """A top-level `try:` whose body imports (`try: import teraxlang as txl
    except ImportError: ...`): the body is what the file means when its
    packages are installed, so its imports and constants are kept, moved to
    column 0 (their lines keep their numbers), and the rest is blanked."""
    kept = set()
    for inner in stmt.body:
        if _compiler_needs(inner) and inner.col_offset > 0:
            indent = inner.col_offset
            rows = range(inner.lineno, inner.end_lineno + 1)
            if all(lines[r - 1][:indent].strip() == "" for r in rows):
                for r in rows:
                    lines[r - 1] = lines[r - 1][indent:]
                kept.update(rows)
    return kept


def kernel_source(text):
    """`text` with every top-level statement the compiler does not need
    replaced by blank lines, so that line:col in diagnostics stay exact
    (imports inside a top-level `try:` move to column 0, see
    _try_imports)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text  # the compiler reports it with its own location
    # Lines as Python's tokenizer counts them (ast's line numbers):
    # str.splitlines would also split at \f, \v, \x1c and friends.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    keep = set()
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in
                                     getattr(stmt, "decorator_list", [])])
        if _compiler_needs(stmt):
            keep.update(range(first, stmt.end_lineno + 1))
            if isinstance(stmt, ast.FunctionDef):
                _blank_host_decorators(stmt, lines)
        elif isinstance(stmt, ast.Try):
            keep.update(_try_imports(stmt, lines))
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in
                                     getattr(stmt, "decorator_list", [])])
        if not _compiler_needs(stmt):
            for line in range(first, stmt.end_lineno + 1):
                if line not in keep:
                    lines[line - 1] = ""
    return "\n".join(lines)


def _function_node(tree, code):
    """The def of the function compiled to `code` (by name and first line;
    co_firstlineno is the first decorator's line)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == code.co_name:
            first = min([node.lineno] + [d.lineno for d in
                                         node.decorator_list])
            if code.co_firstlineno in (first, node.lineno):
                return node
    return None


def _place(lines, node, text):
    """Writes `text` (a def, dedented) over `node`'s lines: at its first
    line, padded or cut to its line count where possible, so that the
    lines after it keep their numbers."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    count = node.end_lineno - first + 1
    new = text.splitlines(keepends=True)
    if new and not new[-1].endswith("\n"):
        new[-1] += "\n"
    new += ["\n"] * (count - len(new))
    lines[first - 1:node.end_lineno] = new


def _module_source(fn, nested=(), src_override=None):
    """The kernel-relevant text of the file defining `fn` (the compiler sees
    the module's helpers, constants and imports; host code is blanked out)
    and its file name. Functions defined inside other functions (`fn`
    itself, or jit helpers it reaches through its closure: `nested`) are
    written, dedented, at their own lines, so that the compiler finds them
    at top level; `src_override` replaces `fn`'s own text."""
    import textwrap
    path = inspect.getsourcefile(fn)
    if not (path and os.path.exists(path)):
        # Defined in a REPL or exec(): only the function's own text exists.
        return (src_override or textwrap.dedent(inspect.getsource(fn)),
                path or "<unknown>")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text, path  # the compiler reports it with its own location
    lines = kernel_source(text).splitlines(keepends=True)
    top = {id(n) for n in tree.body}
    for other in nested:
        node = _function_node(tree, other.__code__)
        if node is not None and id(node) not in top:
            _place(lines, node, textwrap.dedent(inspect.getsource(other)))
    node = _function_node(tree, fn.__code__)
    if node is not None and (src_override is not None or id(node) not in top):
        own = src_override or inspect.getsource(fn)
        _place(lines, node, textwrap.dedent(own))
    return "".join(lines), path


def _referenced_names(code, seen=None):
    names = set(code.co_names) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _referenced_names(const)
    return names


def _closure_values(fn):
    """{name: value} of the variables `fn` closes over (a kernel defined
    inside a function reads its locals as globals)."""
    cells = fn.__closure__ or ()
    values = {}
    for name, cell in zip(fn.__code__.co_freevars, cells):
        try:
            values[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return values


def _is_jit(value):
    inner = getattr(value, "fn", None)
    return isinstance(inner, types.FunctionType) and hasattr(value,
                                                             "arg_names")


# Packages whose modules are never part of a kernel's source closure: txl's
# and Triton's own (the compiler knows their names) and host libraries.
_NOT_KERNEL_MODULES = ("txl", "triton", "teraxlang", "torch", "numpy")


def _user_module_file(module_name):
    """The .py file of module `module_name` if it can hold jit helpers for
    a kernel (not txl/triton/torch, not a compiled or built-in module)."""
    if not module_name or module_name.split(".")[0] in _NOT_KERNEL_MODULES:
        return None
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py") or not os.path.exists(path):
        return None
    return path


def _add_module(modules, module_name, visited):
    """Adds module `module_name` to the source closure `modules` (name ->
    {path, source, globals}) with the globals its jit functions read;
    returns its entry, or None if it is not a user module."""
    entry = modules.get(module_name)
    if entry is not None:
        return entry
    path = _user_module_file(module_name)
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        text = f.read()
    entry = modules[module_name] = {"path": path,
                                    "source": kernel_source(text),
                                    "globals": {}}
    module = sys.modules[module_name]
    for value in list(vars(module).values()):
        if _is_jit(value) and value.fn.__module__ == module_name:
            entry["globals"].update(
                collect_globals(value.fn, visited, None, modules))
    return entry


def _add_package(modules, module_name, visited, limit=64):
    """A module the kernel reaches by attribute (`import pkg.ops.utils`
    binds `pkg`): it and its loaded submodules, which `pkg.ops.utils.f`
    may name (at most `limit` of them)."""
    if _add_module(modules, module_name, visited) is None:
        return
    prefix = module_name + "."
    subs = sorted(n for n in list(sys.modules) if n.startswith(prefix))
    for name in subs[:limit]:
        _add_module(modules, name, visited)


def collect_globals(fn, _visited=None, nested=None, modules=None):
    """{name: source text} of module-level values `fn` (and the @txl.jit
    helpers of its module it calls) may read: numbers, bools, strings,
    dtypes, constexprs, layouts, tuples of these; and the values it closes
    over. Jit helpers reached through a closure are added to `nested`
    (their text must be placed at top level, see _module_source). Helpers
    and modules of other files (`from pkg.utils import f`, `import h`) go
    to `modules`, the kernel's source closure, with their own globals."""
    visited = _visited if _visited is not None else set()
    if fn in visited:
        return {}
    visited.add(fn)
    found = {}
    closure = _closure_values(fn)
    for name in sorted(_referenced_names(fn.__code__)):
        if name in closure:
            value = closure[name]
        elif name in fn.__globals__:
            value = fn.__globals__[name]
        else:
            continue
        if _is_jit(value):
            inner = value.fn
            if inner.__module__ != fn.__module__ and modules is not None:
                _add_module(modules, inner.__module__, visited)
                continue
            if name in closure and nested is not None:
                nested.append(inner)
            found.update(collect_globals(inner, visited, nested, modules))
            continue
        if isinstance(value, types.ModuleType):
            if modules is not None:
                _add_package(modules, value.__name__, visited)
            continue
        text = _specialize.global_text(value)
        if text is not None:
            found[name] = text
    return found


def _prefix_for(names):
    """A prefix for the generated code's own names (locals, helpers) that
    no kernel parameter starts with, so a parameter can never be shadowed
    or overwritten by them."""
    prefix = "_txl_"
    while any(n.startswith(prefix) for n in names):
        prefix = "_" + prefix
    return prefix


def _arg_lines(name, i, nospec, p):
    """Source lines computing {p}e{i} (signature entry) and {p}v{i}
    (launch value) of one runtime argument: what _specialize.arg(name)
    returns, with the common cases inlined. A Python call per argument,
    or an exception, is a noticeable part of the launch cost, so every
    kind a kernel commonly gets (tensor, int, float, bool, None) has a
    branch of its own; the rest (numpy scalars, new dtypes) goes to _arg.
    """
    e, v = f"{p}e{i}", f"{p}v{i}"
    if nospec:
        return [
            f"    if {name}.__class__ is {p}int and "
            f"-2147483648 <= {name} <= 2147483647:",
            f"        {e} = 'i32'; {v} = {name}",
            f"    else:",
            f"        {e}, {v} = {p}arg_nospec({name})",
        ]
    return [
        f"    {p}c = {name}.__class__",
        f"    if {p}c is {p}int:",
        f"        {v} = {name}",
        f"        if {name} == 1: {e} = 'i32:1'",
        f"        elif -2147483648 <= {name} <= 2147483647:",
        f"            {e} = 'i32' if {name} & 15 else 'i32:16'",
        f"        else: {e} = {p}int_entry({name}, True)",
        f"    elif {p}c is {p}float:",
        f"        {e} = 'fp32'; {v} = {name}",
        f"    elif {name} is None:",
        f"        {e} = 'none'; {v} = None",
        f"    elif {p}c is {p}bool:",
        f"        {e} = 'i1'; {v} = {name}",
        f"    elif {p}c is {p}desc_cls:",
        f"        {e} = {p}desc_entry({name}); {v} = {name}",
        f"    else:",
        f"        try:",
        f"            {v} = {name}.data_ptr()",
        f"            {e} = {p}ptr_entries[{name}.dtype][{v} & 15]",
        f"        except {p}Exception:",
        f"            {e}, {v} = {p}arg({name})",
    ]


class JITFunction:
    """A kernel. Launch with ``kernel[grid](*args, **kwargs)``."""

    def __init__(self, fn, do_not_specialize=(), **default_options):
        fn = getattr(fn, "fn", fn)  # accept a triton.jit-wrapped function
        if not isinstance(fn, types.FunctionType):
            raise TypeError("txl.jit expects a Python function")
        unknown = (set(default_options) - set(DEFAULT_OPTIONS) -
                   {"debug", "target"} - set(DEBUG_OPTIONS))
        if unknown:
            raise TypeError(f"txl.jit: unknown options {sorted(unknown)}")
        # Compiler-debugging options (REFERENCE §2): pass-by-pass IR diffs
        # (see _pass_diff) and a hand-edited PTX in place of the compiler's.
        self.debug_options = {k: default_options.get(k)
                              for k in DEBUG_OPTIONS}
        _pass_diff.check_options(self.debug_options["diff_mode"],
                                 self.debug_options["diff_select"])
        # The GPU target ("sm_80", "sm_90a", ...): jit(target=), else
        # $TXL_TARGET, else None (the library picks the current GPU, else
        # sm_90a). Read once, here: one kernel object's launchers never mix
        # targets, and the on-disk cache key holds the resolved target. Such
        # kernels compile to PTX only (see options_json).
        self.target = (default_options.get("target")
                       or os.environ.get("TXL_TARGET") or None)
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
        self.option_names = [o for o in LAUNCH_OPTIONS + COMPILE_KWARGS
                             if o not in self.arg_names]
        self._cache = {}  # specialization key -> Launcher
        self._binder, self._meta_binder, self._launch = self._make_binders()
        self._source = None
        self._globals = None
        self._nested = []
        self._modules = {}  # the source closure: other files' jit helpers
        self._src_override = None  # Triton's _unsafe_update_src

    @property
    def cache(self):
        """specialization key -> Launcher. The generated launch function
        holds this dict itself, so assigning replaces the contents."""
        return self._cache

    @cache.setter
    def cache(self, value):
        self._cache.clear()
        self._cache.update(value)

    # -- binding ------------------------------------------------------------
    def _make_binders(self):
        """Generates three functions with the kernel's own parameter list:
        `bind` returns (key, runtime values), `meta` the dict a grid
        callable receives, and `launch(grid, ...)` is the whole hot path of
        kernel[grid](...): Python's argument binding matches positional and
        keyword arguments and defaults in C, each argument's specialization
        is inlined, one dict lookup finds the Launcher, and its generated
        `_fast` packs and launches. Anything unusual (a key seen for the
        first time, an unhashable constexpr) goes to _run_slow."""
        p = _prefix_for(self.arg_names)
        # The generated functions reach the kernel object through a weak
        # reference only: kernel objects stay out of reference cycles, so
        # dropping one frees it and its Launchers (kernel handles) at once,
        # as before, rather than at some later garbage collection.
        ref = weakref.ref(self)

        def kernel():
            obj = ref()
            if obj is None:
                raise ReferenceError("the txl kernel object was deleted")
            return obj

        def slow(grid, args, kwargs):
            return kernel()._run_slow(grid, args, kwargs)

        def grid_of(grid, meta):
            return kernel()._grid_of(grid, meta)

        helpers = {"cache": self._cache, "slow": slow,
                   "grid_of": grid_of, "arg": _specialize.arg,
                   "arg_nospec": _specialize.arg_nospec,
                   "int_entry": _specialize._int_entry,
                   "ptr_entries": _specialize._pointer_entries16,
                   "desc_cls": _tensor_descriptor.TensorDescriptor,
                   "desc_entry": _tensor_descriptor.signature_entry,
                   "int": int, "float": float, "bool": bool, "tuple": tuple,
                   "len": len, "Exception": Exception, "KeyError": KeyError,
                   "TypeError": TypeError, "jit": sys.modules[__name__]}
        params = []
        for q in self.params:
            if q.default is inspect.Parameter.empty:
                params.append(q.name)
            else:
                helpers[f"default_{q.index}"] = q.default
                params.append(f"{q.name}={p}default_{q.index}")
        options = [f"{o}=None" for o in self.option_names]
        signature = ", ".join(params + (["*"] + options if options else []))
        arg_code, entries, values = [], [], []
        for q in self.runtime_params:
            arg_code += _arg_lines(q.name, q.index, q.do_not_specialize, p)
            entries.append(f"{p}e{q.index}")
            values.append(f"{p}v{q.index}")
        key = entries + [f"{q.name}.__class__, {q.name}"
                         for q in self.params if q.is_constexpr]
        key = f"({', '.join(key + self.option_names)},)"
        # What a grid callable sees: arguments and launch options (not
        # compile keywords such as extern_libs, as in Triton's meta).
        meta_names = [n for n in self.arg_names + self.option_names
                      if n not in COMPILE_KWARGS]
        meta = "{" + ", ".join(f"{n!r}: {n}" for n in meta_names) + "}"
        # The function body, indented one more level inside the factory.
        launch_values = "".join(f", {v}" for v in values)
        grid, launcher = f"{p}grid", f"{p}launcher"
        lines = [f"def bind({signature}):", *arg_code,
                 f"    return {key}, ({''.join(v + ', ' for v in values)})",
                 f"def meta({signature}):",
                 f"    return {meta}",
                 f"def launch({grid}, {signature}):", *arg_code,
                 f"    try:",
                 f"        {launcher} = {p}cache[{key}]",
                 f"    except ({p}KeyError, {p}TypeError):",
                 f"        return {p}slow({grid}, "
                 f"({''.join(n + ', ' for n in self.arg_names)}), "
                 "{" + ", ".join(f"{o!r}: {o}" for o in self.option_names)
                 + "})",
                 f"    if {grid}.__class__ is not {p}tuple:",
                 f"        {grid} = {p}grid_of({grid}, {meta})",
                 f"    {p}n = {p}len({grid})",
                 f"    if {p}n == 1:",
                 f"        {launcher}._fast({grid}[0], 1, 1, {p}jit._stream()"
                 f"{launch_values})",
                 f"    elif {p}n == 2:",
                 f"        {launcher}._fast({grid}[0], {grid}[1], 1, "
                 f"{p}jit._stream(){launch_values})",
                 f"    else:",
                 f"        {launcher}._fast({grid}[0], {grid}[1], {grid}[2], "
                 f"{p}jit._stream(){launch_values})",
                 f"    return {launcher}"]
        factory = [f"def {p}factory({', '.join(p + h for h in helpers)}):"]
        factory += ["    " + line for line in lines]
        factory.append("    return bind, meta, launch")
        namespace = {}
        # Every name the code uses is a parameter of the factory (so no
        # kernel parameter can shadow it); `_stream` is read from this
        # module at each launch because it rebinds itself.
        exec(compile("\n".join(factory), f"<txl binder for {self.__name__}>",
                     "exec"), {"__builtins__": builtins}, namespace)
        bind, meta, launch = namespace[f"{p}factory"](*helpers.values())
        # Argument errors then read "add[grid]() missing 1 required ...".
        launch.__name__ = launch.__qualname__ = f"{self.__name__}[grid]"
        return bind, meta, launch

    # -- launching ----------------------------------------------------------
    def __getitem__(self, grid):
        # A bound method with the grid as its first argument: created and
        # called in C, no per-launch closure or *args/**kwargs repacking.
        if grid is None:
            raise TypeError(f"{self.__name__}[grid]: the grid is a tuple or "
                            "a callable of the meta-parameters, not None")
        return _MethodType(self._launch, grid)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"{self.__name__} is a txl kernel: launch it with "
            f"{self.__name__}[grid](...)")

    def run(self, grid, args, kwargs, stream=None):
        """kernel[grid](*args, **kwargs), optionally on an explicit stream."""
        if stream is None:
            return self._launch(grid, *args, **kwargs)
        return self._run_slow(grid, args, kwargs, stream)

    def _grid_of(self, grid, meta):
        """A grid that is not a tuple: a callable of the meta dict (launch
        options filled with their defaults) or any sequence."""
        if callable(grid):
            for name in self.option_names:
                if meta.get(name, 0) is None:
                    meta[name] = self.options.get(name)
            grid = grid(meta)
        return tuple(grid)

    def _run_slow(self, grid, args, kwargs, stream=None):
        """First launch of a key (compiles), unhashable constexprs, explicit
        streams, and argument errors with a readable message."""
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
            if meta.get(name, 0) is None:
                meta[name] = self.options.get(name)
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
            self.globals_text()  # finds the nested helpers
            self._source = _module_source(self.fn, self._nested,
                                          self._src_override)
        return self._source

    def globals_text(self):
        if self._globals is None:
            self._nested = []
            self._modules = {}
            self._globals = collect_globals(self.fn, nested=self._nested,
                                            modules=self._modules)
        return self._globals

    def options_json(self, options, target=None, libdevice=None):
        payload = {k: bool(v) if k in FLAG_OPTIONS else int(v)
                   for k, v in options.items()}
        if libdevice:
            payload["libdevice"] = libdevice
        payload["globals"] = self.globals_text()
        if self._modules:
            payload["modules"] = self._modules
        if not target and self.target:
            # A forced target need not be the GPU's (sm_80 on an H100), and
            # a cubin loads only on its own architecture: hand over PTX
            # alone, which the driver JITs for the GPU at hand.
            target = self.target
            payload["skip_cubin"] = True
        if target:
            payload["target"] = target
        if self.debug_options["src_file"]:
            payload["ptx_override"] = os.path.abspath(
                self.debug_options["src_file"])
        if self.debug_options["dump_locations"]:
            payload["dump_locations"] = True
        if self.debug_options["diff_mode"]:
            payload["print_after_all"] = _pass_diff.dump_dir(
                self.__name__, self.debug_options["log_dir"])
        return json.dumps(payload, sort_keys=True)

    def _compile_for(self, key, args, kwargs):
        signature, options, entries = self.specialization(args, kwargs)
        source, filename = self.source()
        options_json = self.options_json(
            options, libdevice=_libdevice_of(kwargs.get("extern_libs")))
        handle = _capi.compile(source, filename, self.__name__, signature,
                               options_json)
        if self.debug_options["diff_mode"]:
            _pass_diff.report(self.__name__,
                              json.loads(options_json)["print_after_all"],
                              self.debug_options["diff_mode"],
                              self.debug_options["diff_select"],
                              self.debug_options["log_dir"])
        try:
            metadata = parse_metadata(_capi.kernel_metadata(handle))
            _warn_assembler(metadata)
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
        try:
            launcher = self.cache.get(key)
        except TypeError:  # an unhashable constexpr or extern_libs dict
            key = tuple(map(repr, key))
            launcher = self.cache.get(key)
        return launcher or self._compile_for(key, args, kwargs)

    def __repr__(self):
        return f"JITFunction({self.fn.__module__}:{self.__name__})"


def _libdevice_of(extern_libs):
    """The libdevice path of a launch's extern_libs (None: the default).
    txl links libdevice only; other libraries are an error, and so is a
    path that does not exist (rather than a silent other libdevice)."""
    if not extern_libs:
        return None
    if not isinstance(extern_libs, dict):
        raise TypeError("extern_libs must be a dict {name: path}")
    unknown = set(extern_libs) - {"libdevice"}
    if unknown:
        raise ValueError(f"extern_libs: txl links only 'libdevice', not "
                         f"{sorted(unknown)}")
    path = os.path.abspath(str(extern_libs["libdevice"]))
    if not os.path.isfile(path):
        raise FileNotFoundError(f"extern_libs: libdevice {path!r} does not "
                                "exist")
    return path


def _warn_assembler(metadata):
    """ptxas's performance warnings (serialized wgmma, setmaxnreg ignored,
    spills) as Python warnings, once per compilation (not on cache hits)."""
    if metadata.get("cache_hit"):
        return
    for line in warning_lines(metadata):
        warnings.warn(line, TxlAssemblerWarning, stacklevel=4)


class TxlAssemblerWarning(UserWarning):
    """A warning of ptxas about a kernel (its metadata has the details)."""


def jit(fn=None, *, do_not_specialize=(), **options):
    """Decorator: ``@txl.jit`` or ``@txl.jit(num_warps=8, ...)``.
    ``target="sm_80"`` compiles for that GPU target instead of the current
    GPU's (e.g. the mma.sync path on a Hopper), as PTX that the driver JITs
    for the GPU at hand; $TXL_TARGET sets the same for every kernel object
    created while it is set."""
    if fn is None:
        return lambda f: JITFunction(f, do_not_specialize, **options)
    return JITFunction(fn, do_not_specialize, **options)


def _stream():
    """The current torch CUDA stream handle (0 = the legacy default
    stream) or None without torch. Rebinds itself to a C-level getter the
    first time torch is seen (the launch path calls it on every launch)."""
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
        _stream = _raw_stream_getter(raw, get_device)
    else:
        _stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa
    return _stream()


def _raw_stream_getter(raw, get_device):
    """c10's getCurrentCUDAStream reads device index -1 as "the current
    device", so raw(-1) is the current stream in one C call, and a partial
    calls it without a Python frame. Used only if this torch takes -1 and
    agrees with the two-call form; otherwise the two-call form."""
    try:
        if raw(-1) == raw(get_device()):
            return functools.partial(raw, -1)
    except Exception:  # an older torch that rejects -1
        pass
    return lambda: raw(get_device())


def current_stream():
    return _stream()
