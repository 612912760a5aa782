"""txl.compile: compile-only use, like triton.compile.

    k = txl.compile(add, signature={"x": "*fp32", "y": "*fp32",
                                    "out": "*fp32", "n": "i32"},
                    constexprs={"BLOCK": 1024}, target="sm_90a")
    print(k.asm["ptx"]); k.metadata["shared_bytes"]
    k[(blocks,)](x, y, out, n)   # launch: runtime values in launch order
"""

import inspect
import json
import sys

from . import _capi, _specialize
from ._launcher import Launcher
from ._kernel_info import ALL_ARTIFACTS, TEXT_ARTIFACTS, Asm, KernelInfo
from .jit import DEFAULT_OPTIONS, JITFunction

class CompiledKernel(KernelInfo):
    def __init__(self, handle, name):
        self._handle = handle
        self.name = name
        self.metadata = json.loads(_capi.kernel_metadata(handle))
        self.asm = Asm(handle, owner=self)
        self._launcher = None

    @property
    def launcher(self):
        if self._launcher is None:
            picks = list(range(len(self.metadata["params"])))
            # The launcher takes ownership of the handle.
            self._launcher = Launcher(self._handle, self.metadata, picks)
            self._handle = None
        return self._launcher

    def __getitem__(self, grid):
        def launch(*values, stream=None):
            from .jit import current_stream
            n = len(grid)
            self.launcher.launch(grid[0], grid[1] if n > 1 else 1,
                                 grid[2] if n > 2 else 1,
                                 current_stream() if stream is None else stream,
                                 tuple(_launch_value(v) for v in values))
        return launch

    def __del__(self):
        if self._handle and not sys.is_finalizing():
            _capi.kernel_free(self._handle)


_EMPTY = inspect.Parameter.empty


def _launch_value(value):
    data_ptr = getattr(value, "data_ptr", None)
    return data_ptr() if data_ptr is not None else value


def _signature_text(fn, signature, constexprs):
    if isinstance(signature, str):
        return signature
    names = [p.name for p in fn.params]
    constexprs = dict(constexprs or {})
    if isinstance(signature, dict):
        for name in signature:
            if name not in names:
                raise TypeError(f"txl.compile: {fn.__name__} has no "
                                f"parameter {name!r}")
        entries = []
        for p in fn.params:
            if p.name in constexprs:
                entries.append(_specialize.constexpr_text(constexprs[p.name]))
            elif p.name in signature:
                entries.append(signature[p.name])
            elif p.is_constexpr:
                if p.default is _EMPTY:
                    raise TypeError(f"txl.compile: constexpr {p.name!r} "
                                    "needs a value in constexprs=")
                entries.append(_specialize.constexpr_text(p.default))
            else:
                raise TypeError(f"txl.compile: no signature entry for "
                                f"{p.name!r}")
        return ",".join(entries)
    return ",".join(signature)


def compile(fn, signature, constexprs=None, target=None, **options):
    """Compiles `fn` (a @txl.jit kernel or a plain function) for one
    signature: a Triton-style string ("*fp16:16,i32,128"), a list of
    entries, or a dict {param: entry} with constexpr values in
    `constexprs`. Options: num_warps, num_warpgroups, num_stages, num_ctas,
    maxnreg; target defaults to the kernel's (txl.jit(target=) or
    $TXL_TARGET), else the current GPU, else sm_90a."""
    if not isinstance(fn, JITFunction):
        fn = JITFunction(fn)
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise TypeError(f"txl.compile: unknown options {sorted(unknown)}")
    merged = dict(fn.options)
    merged.update(options)
    text = _signature_text(fn, signature, constexprs)
    source, filename = fn.source()
    handle = _capi.compile(source, filename, fn.__name__, text,
                           fn.options_json(merged, target))
    return CompiledKernel(handle, fn.__name__)
