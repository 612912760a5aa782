"""Run unmodified Triton code through txl: the drop-in switch.

    import txl; txl.enable_triton_compat()      # before the code imports triton
    TXL_AS_TRITON=1 python3 -c "import txl; ..."  # the same, on `import txl`
    python3 -m txl.triton_compat script.py ARGS   # run a script under it
    PYTHONPATH=python/txl/compat_site TXL_AS_TRITON=1 python3 script.py

Under the switch `@triton.jit` kernels compile with txl's compiler and
launch through libtxl: `triton.jit`, `triton.autotune`, `triton.heuristics`,
`triton.Config` and `triton.JITFunction` become txl's versions, so
`kernel[grid](...)`, `kernel.warmup(...)`, `.asm` and autotuning go through
txl. With Triton installed, the rest of the `triton` package (testing,
runtime.driver, tools.tensor_descriptor, the `_internal_testing` helpers)
stays Triton's own; without it, a small stand-in package provides what
kernels files commonly import at module level (language, testing, runtime
driver queries, tools.tensor_descriptor, profiler.language scopes).

`teraxlang` (the TXL project's package name) is made an alias of txl.
`TXL_COMPAT_SKIP_BENCH=1` makes `triton.testing.perf_report(...)` benchmarks
no-ops, so that a tutorial script runs only its correctness checks.

Accepted and ignored (documented in docs/triton-compat.md): jit options
`launch_metadata`, `debug`, `noinline`, `repr`,
`do_not_specialize_on_alignment`; autotune's `use_cuda_graph` (every other
autotune argument works as in Triton: see txl/autotune.py); Config fields txl has no use for
(`num_buffers_warp_spec`, `num_consumer_groups`, `reg_dec_producer`,
`reg_inc_consumer`, `ir_override`, `minRegAutoWS`, `maxRegAutoWS`,
`pingpongAutoWS`).
"""

import importlib
import importlib.abc
import importlib.machinery
import os
import runpy
import sys
import types

from .autotune import Autotuner, Heuristics, autotune, heuristics  # noqa: F401
from .autotune import Config as _Config
from .jit import JITFunction as _JITFunction
from .jit import current_stream as _current_stream

_IGNORED_JIT_OPTIONS = ("launch_metadata", "debug", "noinline",
                        "do_not_specialize_on_alignment")
_IGNORED_CONFIG_FIELDS = ("num_buffers_warp_spec", "num_consumer_groups",
                          "reg_dec_producer", "reg_inc_consumer",
                          "ir_override", "minRegAutoWS", "maxRegAutoWS",
                          "pingpongAutoWS")

_enabled = False


# ---------------------------------------------------------------------------
# triton.jit / JITFunction
# ---------------------------------------------------------------------------

class _WarmedKernel:
    """What `kernel.warmup(...)` returns: the compiled kernel, with
    Triton's CompiledKernel surface (asm, metadata.shared, n_regs,
    n_spills, _init_handles, and [grid](all args) that skips constexprs)."""

    def __init__(self, fn, launcher):
        self._fn = fn
        self._launcher = launcher
        meta = dict(launcher.metadata)
        self.metadata = types.SimpleNamespace(**meta)
        self.metadata.shared = meta.get("shared_bytes", 0)
        self.metadata.num_warps = meta.get("num_warps", 4)
        from ._cubin import register_count
        # Without a cubin (PTX for the driver to JIT) the count is unknown:
        # 0 would divide by zero in occupancy arithmetic, so assume the
        # most a thread can have.
        cubin = launcher.asm.get("cubin")
        self.n_regs = launcher.n_regs or (
            register_count(cubin, meta.get("name", fn.__name__))
            if cubin else None) or 255
        # The assembler's report (None when the driver JITs the PTX).
        self.n_spills = launcher.n_spills or 0
        self.name = meta.get("name", fn.__name__)

    @property
    def asm(self):
        return self._launcher.asm

    def _init_handles(self):
        """Triton loads the module here; txl's launcher already did."""

    def __getitem__(self, grid):
        fn = self._fn

        def launch(*args, **kwargs):
            return fn.run(grid, args, kwargs)
        return launch


def _refuse_host_tensors(args, kwargs):
    """Triton's ValueError for a tensor in (unpinned) host memory, which the
    GPU cannot read. Checked when a kernel is compiled for the arguments
    (the launch fast path does not look at devices)."""
    for i, a in enumerate(list(args) + list(kwargs.values())):
        device = getattr(a, "device", None)
        if getattr(device, "type", None) != "cpu" or not hasattr(a,
                                                                 "data_ptr"):
            continue
        pinned = getattr(a, "is_pinned", None)
        if pinned is not None and pinned():
            continue
        raise ValueError(f"Pointer argument (at {i}) cannot be accessed "
                         "from Triton (cpu tensor?)")


class TritonJITFunction(_JITFunction):
    """txl's JITFunction with the parts of Triton's interface that user
    code touches: `src` and `_unsafe_update_src` (rewrite the kernel's own
    text, as Triton's tests do), `warmup` returning a compiled kernel, and
    calls from other jit code."""

    def __init__(self, fn, do_not_specialize=(), **options):
        for name in _IGNORED_JIT_OPTIONS:
            options.pop(name, None)
        # triton.jit(repr=f): f(specialization) names the compiled kernel
        # (its `.name`, as profilers show it); the PTX entry keeps the
        # function's name.
        self._name_of = options.pop("repr", None)
        super().__init__(fn, do_not_specialize, **options)

    def _specialization_view(self, args, kwargs):
        """What Triton hands a `repr=` function: `.signature` (parameter ->
        type, constexprs as "constexpr") and `.constants` (constexpr values
        and the integers specialised to 1)."""
        _, _, entries = self.specialization(args, kwargs)
        meta = self._meta(args, kwargs)
        signature, constants = {}, {}
        runtime = iter(entries)
        for p in self.params:
            if p.is_constexpr:
                signature[p.name] = "constexpr"
                constants[p.name] = meta[p.name]
                continue
            entry = str(next(runtime))
            base, _, hint = entry.partition(":")
            signature[p.name] = base
            if hint == "1":
                constants[p.name] = 1
        return types.SimpleNamespace(signature=signature, constants=constants)

    @property
    def src(self):
        if self._src_override is not None:
            return self._src_override
        import inspect
        import textwrap
        return textwrap.dedent(inspect.getsource(self.fn))

    def _unsafe_update_src(self, new_src):
        self._src_override = new_src
        self._source = None
        self.cache.clear()

    def _compile_for(self, key, args, kwargs):
        from . import _capi
        _refuse_host_tensors(args, kwargs)
        try:
            return super()._compile_for(key, args, kwargs)
        except _capi.TxlError as e:
            # Triton checks launch options with asserts (num_warps must be
            # a power of 2, ...): its users catch AssertionError.
            if str(e).startswith("option '"):
                raise AssertionError(str(e)) from None
            raise

    def warmup(self, *args, grid=None, **kwargs):
        warmed = _WarmedKernel(self, super().warmup(*args, **kwargs))
        if self._name_of is not None:
            warmed.name = self._name_of(self._specialization_view(args, kwargs))
        return warmed


def jit(fn=None, *, do_not_specialize=(), **options):
    """triton.jit under the switch: a txl kernel; Triton-only options are
    accepted and ignored."""
    if fn is None:
        return lambda f: TritonJITFunction(f, do_not_specialize, **options)
    return TritonJITFunction(fn, do_not_specialize, **options)


# ---------------------------------------------------------------------------
# Config / autotune / heuristics
# ---------------------------------------------------------------------------

class Config(_Config):
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1,
                 maxnreg=None, pre_hook=None, num_warpgroups=1, **ignored):
        unknown = set(ignored) - set(_IGNORED_CONFIG_FIELDS)
        if unknown:
            raise TypeError(f"triton.Config: unknown fields {sorted(unknown)}")
        super().__init__(kwargs, num_warps=num_warps, num_stages=num_stages,
                         num_warpgroups=num_warpgroups, num_ctas=num_ctas,
                         maxnreg=maxnreg or 0, pre_hook=pre_hook)


# ---------------------------------------------------------------------------
# Stand-in modules (no Triton installed) and aliases
# ---------------------------------------------------------------------------

def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__path__ = []  # a package: submodules may be imported from it
    return m


class _Scope:
    """triton.profiler.language.scope as a context manager: a no-op in
    Python (kernel bodies are compiled, not run)."""

    def __init__(self, name, *args, **kwargs):
        self.name = name

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _noop(*args, **kwargs):
    return None


class _Target(types.SimpleNamespace):
    pass


class _Driver:
    """triton.runtime.driver.active for the stand-in package."""

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda", torch.cuda.current_device())

    def get_current_target(self):
        from . import _capi
        try:
            major, minor = _capi.device_capability()
        except Exception:
            major, minor = 9, 0
        return _Target(backend="cuda", arch=major * 10 + minor,
                       warp_size=32)

    def get_current_device(self):
        import torch
        return torch.cuda.current_device()

    def get_current_stream(self, device=None):
        return _current_stream()

    @property
    def utils(self):
        return types.SimpleNamespace(
            get_device_properties=_device_properties)


def _device_properties(index):
    import torch
    p = torch.cuda.get_device_properties(index)
    return {"multiprocessor_count": p.multi_processor_count,
            "max_shared_mem": getattr(p, "shared_memory_per_block_optin",
                                      232448),
            "max_num_regs": getattr(p, "regs_per_multiprocessor", 65536),
            "warpSize": getattr(p, "warp_size", 32),
            "max_threads_per_sm":
                getattr(p, "max_threads_per_multi_processor", 2048)}


def _skip_benchmarks(testing):
    """TXL_COMPAT_SKIP_BENCH=1: perf_report(...)(fn).run() does nothing."""
    if os.environ.get("TXL_COMPAT_SKIP_BENCH") != "1":
        return

    class _Report:
        def __init__(self, fn):
            self.fn = fn

        def run(self, *args, **kwargs):
            return None

        def __call__(self, *args, **kwargs):
            return self.fn(*args, **kwargs)

    testing.perf_report = lambda benchmarks: _Report


def _stand_in_triton():
    """A minimal `triton` package for machines without Triton."""
    import txl
    from . import language as tl
    from . import testing as txl_testing
    from .language import core

    language = _module("triton.language")
    language.__dict__.update({k: v for k, v in tl.__dict__.items()
                              if not k.startswith("__")})
    language.__getattr__ = tl.__getattr__
    libdevice = _module("triton.language.extra.libdevice",
                        __getattr__=lambda n: core._device_stub(
                            "libdevice." + n))
    cuda = _module("triton.language.extra.cuda", libdevice=libdevice)
    extra = _module("triton.language.extra", libdevice=libdevice, cuda=cuda)
    language.extra = extra

    class Benchmark:
        def __init__(self, **kwargs):
            self.__dict__.update(kwargs)

    def perf_report(benchmarks):
        def decorator(fn):
            fn.run = _noop  # no plotting stack in the stand-in
            return fn
        return decorator

    testing = _module("triton.testing", do_bench=txl_testing.do_bench,
                      assert_close=txl_testing.assert_close,
                      Benchmark=Benchmark, perf_report=perf_report)
    driver = types.SimpleNamespace(active=_Driver())
    runtime = _module("triton.runtime", driver=driver)
    tensor_descriptor = _module("triton.tools.tensor_descriptor",
                                TensorDescriptor=txl.TensorDescriptor)
    tools = _module("triton.tools", tensor_descriptor=tensor_descriptor)
    profiler_language = _module("triton.profiler.language", scope=_Scope,
                                enter_scope=_noop, exit_scope=_noop,
                                enable_semantic=_noop,
                                enable_semantic_obj=_noop)
    profiler = _module("triton.profiler", language=profiler_language,
                       start=_noop, finalize=_noop, activate=_noop,
                       deactivate=_noop, scope=_Scope)
    triton = _module("triton", language=language, testing=testing,
                     runtime=runtime, tools=tools, profiler=profiler,
                     cdiv=lambda a, b: -(-a // b),
                     next_power_of_2=_next_power_of_2,
                     __version__="3.6.0+txl")
    modules = {"triton": triton, "triton.language": language,
               "triton.language.extra": extra,
               "triton.language.extra.libdevice": libdevice,
               "triton.language.extra.cuda": cuda,
               "triton.language.extra.cuda.libdevice": libdevice,
               "triton.language.math": tl.math,
               "triton.testing": testing, "triton.runtime": runtime,
               "triton.tools": tools,
               "triton.tools.tensor_descriptor": tensor_descriptor,
               "triton.profiler": profiler,
               "triton.profiler.language": profiler_language}
    sys.modules.update(modules)
    return triton


def _next_power_of_2(n):
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


def _compilation_error_for(triton):
    """A txl CompilationError that is also Triton's, so that code catching
    `triton.CompilationError` / `triton.TritonError` (Triton's own tests do,
    with pytest.raises) catches txl's compile errors. Triton's class builds
    its message from an AST node txl does not have: str() stays txl's
    located diagnostic."""
    base = getattr(triton, "CompilationError", None)
    if not isinstance(base, type) or not issubclass(base, Exception):
        return None
    from ._capi import CompilationError as txl_error

    class TritonCompilationError(txl_error, base):
        __str__ = txl_error.__str__

        def __init__(self, status, message):
            txl_error.__init__(self, status, message)
            self.src, self.node, self.error_message = None, None, message
            self.message = message
            # Triton's CompilationError is raised from the semantic error
            # that caused it, and Triton's tests read that error's text
            # from __cause__: here the diagnostic itself.
            self.__cause__ = RuntimeError(message)

        def __reduce__(self):
            return type(self), (self.status, self.message)

    # Picklable by name (pytest-xdist workers send exceptions as pickles).
    TritonCompilationError.__qualname__ = "TritonCompilationError"
    globals()["TritonCompilationError"] = TritonCompilationError
    return TritonCompilationError


def _patch(triton):
    """Points the triton package's entry points at txl's."""
    from . import _capi
    error = _compilation_error_for(triton)
    if error is not None:
        _capi.CompilationError = error
    triton.jit = jit
    triton.autotune = autotune
    triton.heuristics = heuristics
    triton.Config = Config
    triton.JITFunction = TritonJITFunction
    for name in ("triton.runtime.jit", "triton.runtime"):
        mod = sys.modules.get(name)
        if mod is not None:
            for attr, value in (("jit", jit),
                                ("JITFunction", TritonJITFunction)):
                # triton.runtime.jit is also the submodule's name on the
                # package: only the function is replaced, never the module.
                if hasattr(mod, attr) and not isinstance(
                        getattr(mod, attr), types.ModuleType):
                    setattr(mod, attr, value)
    auto = sys.modules.get("triton.runtime.autotuner")
    if auto is not None:
        auto.autotune, auto.heuristics, auto.Config = (autotune, heuristics,
                                                       Config)
    testing = sys.modules.get("triton.testing") or getattr(triton, "testing",
                                                           None)
    if testing is not None:
        _skip_benchmarks(testing)


def _alias_teraxlang():
    """The TXL project imports itself as `teraxlang`."""
    import txl
    sys.modules.setdefault("teraxlang", txl)
    sys.modules.setdefault("teraxlang.language", txl.language)
    semantic = _module("teraxlang.language.semantic", TXLSemantic=object)
    sys.modules.setdefault("teraxlang.language.semantic", semantic)


def enable_triton_compat():
    """Makes `triton` code run through txl (see the module docstring).
    Call it before the code imports triton's names (`from triton import
    jit` binds the function at import time); idempotent."""
    global _enabled
    if _enabled:
        return sys.modules["triton"]
    try:
        triton = importlib.import_module("triton")
        for sub in ("triton.testing", "triton.runtime.jit",
                    "triton.runtime.autotuner"):
            try:
                importlib.import_module(sub)
            except Exception:  # an optional part (plotting, a backend)
                pass
    except ImportError:
        triton = _stand_in_triton()
    _patch(triton)
    _alias_teraxlang()
    _enabled = True
    return triton


def is_enabled():
    return _enabled


def main(argv=None):
    """python3 -m txl.triton_compat SCRIPT [ARGS...]"""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print(__doc__.split("\n\n")[0] + "\nusage: python3 -m "
              "txl.triton_compat SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    enable_triton_compat()
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
