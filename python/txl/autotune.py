"""txl.autotune, txl.Config and txl.heuristics: triton.autotune's surface.

An autotuned kernel is timed once per *key* (the values of the `key`
arguments plus the dtypes of every tensor argument) over its configs, and the
fastest config is used for every later launch with that key. What happens on
the first launch of a key, in order:

1. prune: `prune_configs_by={'early_config_prune': f}` drops configs by
   f(configs, named_args, **kwargs); `perf_model` + `top_k` keep the top_k
   configs a model predicts fastest (top_k <= 1.0 is a fraction).
2. compile: every remaining config is compiled on a thread pool (the C API
   releases the GIL, so configs compile in parallel); a config that does not
   compile is recorded with the compiler's message.
3. time: each compiled config runs under `do_bench(warmup=, rep=)`; before
   each run `reset_to_zero` arguments are zeroed, `restore_value` arguments
   are restored to their values from before tuning, the autotuner's
   `pre_hook` and then the config's `pre_hook` run; after it `post_hook(args,
   exception)`. An optional `check(named_args)` (a txl addition) runs after a
   config's first run: False or an exception marks the config "wrong result".
4. remember: the best config is kept per key; with `cache_results=True` also
   on disk (under the txl cache directory, per kernel source, configs, key
   and GPU), so a later process skips tuning.

Every failed config keeps a reason (compile error, out of resources, wrong
result, launch error, no GPU). While tuning a progress line is drawn on
stderr when it is a terminal; `TXL_PRINT_AUTOTUNING=1` prints a table of
every config's time or failure reason and the choice.
"""

import concurrent.futures
import copy
import hashlib
import json
import os
import sys
import time

from .jit import JITFunction, LAUNCH_OPTIONS


class Config:
    """One point of the search space: meta-parameters (`kwargs`) plus launch
    options. `pre_hook(named_args)` runs before every launch with it. The
    flags left None (enable_fp_fusion, enable_reflect_ftz) keep the
    kernel's own setting."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_warpgroups=1,
                 num_ctas=1, maxnreg=0, pre_hook=None, enable_fp_fusion=None,
                 enable_reflect_ftz=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_warpgroups = num_warpgroups
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.enable_fp_fusion = enable_fp_fusion
        self.enable_reflect_ftz = enable_reflect_ftz
        self.pre_hook = pre_hook

    def all_kwargs(self):
        options = {o: getattr(self, o) for o in LAUNCH_OPTIONS
                   if getattr(self, o) is not None}
        return {**self.kwargs, **options}

    def __repr__(self):
        items = ", ".join(f"{k}: {v}" for k, v in self.all_kwargs().items())
        return f"Config({items})"


class ConfigFailure:
    """Why a config was not chosen: `kind` is one of 'compile error', 'out of
    resources', 'wrong result', 'launch error', 'no GPU'; `message` the
    first line of the underlying error."""

    def __init__(self, kind, message):
        self.kind = kind
        self.message = message

    def __str__(self):
        return f"{self.kind}: {self.message}" if self.message else self.kind


_RESOURCE_WORDS = ("shared memory", "out of resources", "registers",
                   "too many resources", "exceeds")


def classify_failure(error, phase):
    """A ConfigFailure for an exception raised while compiling ('compile')
    or running ('run') a config."""
    from ._capi import CompilationError
    first = str(error).strip().splitlines()
    message = first[0] if first else type(error).__name__
    lowered = str(error).lower()
    if isinstance(error, WrongResult):
        return ConfigFailure("wrong result", message)
    if any(word in lowered for word in _RESOURCE_WORDS):
        return ConfigFailure("out of resources", message)
    if isinstance(error, CompilationError) or phase == "compile":
        return ConfigFailure("compile error", message)
    if "no cuda gpus" in lowered or "cuda driver" in lowered:
        return ConfigFailure("no GPU", message)
    return ConfigFailure("launch error", message)


class WrongResult(Exception):
    """A config's output failed the autotuner's `check`."""


def _gpu_name():
    try:
        import torch
        if torch.cuda.is_available():
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            return f"{props.name} sm_{props.major}{props.minor}"
    except Exception:  # torch missing or broken: no GPU to tune on
        pass
    return None


def _synchronize():
    try:
        import torch
        if torch.cuda.is_available():
            torch.cuda.synchronize()
    except ImportError:
        pass


def _cache_dir():
    base = os.environ.get("TXL_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "txl")
    return os.path.join(base, "autotune")


class _Progress:
    """One updating line on stderr while tuning, only on a terminal."""

    def __init__(self, name, total):
        self.name = name
        self.total = total
        self.enabled = total > 1 and sys.stderr.isatty()

    def step(self, phase, done):
        if not self.enabled:
            return
        width = 24
        filled = width * done // self.total
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(f"\rtxl.autotune {self.name}: {phase} [{bar}] "
                         f"{done}/{self.total}")
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\r" + " " * 79 + "\r")
            sys.stderr.flush()


class Autotuner:
    """The object `@txl.autotune(...)` returns: launch it like the kernel
    (`kernel[grid](...)`). `best_config` is the last choice,
    `configs_timings` the last tuning's {config: ms or ConfigFailure}."""

    def __init__(self, fn, configs, key, prune_configs_by=None,
                 reset_to_zero=None, restore_value=None, pre_hook=None,
                 post_hook=None, warmup=25, rep=100, cache_results=False,
                 do_bench=None, check=None):
        if not (isinstance(fn, JITFunction) or (hasattr(fn, "run") and
                                                hasattr(fn, "arg_names"))):
            raise TypeError("txl.autotune must wrap a @txl.jit kernel")
        self.fn = fn
        self.configs = list(configs) or [Config({})]
        self.key = list(key)
        self.prune_configs_by = dict(prune_configs_by or {})
        self.reset_to_zero = list(reset_to_zero or ())
        self.restore_value = list(restore_value or ())
        self.user_pre_hook = pre_hook
        self.post_hook = post_hook
        self.num_warmups = 25 if warmup is None else warmup  # ms
        self.rep = 100 if rep is None else rep  # ms
        self.cache_results = cache_results
        self.custom_do_bench = do_bench
        self.check = check
        self.best = {}  # key -> Config
        self.configs_timings = {}
        self.bench_time = 0.0
        self.arg_names = fn.arg_names
        self.__name__ = fn.__name__

    # -- launching ----------------------------------------------------------
    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid, args, kwargs)

    def run(self, grid, args, kwargs, stream=None):
        key, named = self._key_of(args, kwargs)
        config = self.best.get(key)
        if config is None:
            config = self._load_cached(key, named, kwargs) or self._tune(
                grid, args, kwargs, named)
            self.best[key] = config
            self._report_choice(config)
        if config.pre_hook:
            config.pre_hook({**named, **config.all_kwargs()})
        return self._launch(grid, args, kwargs, config, stream)

    def _launch(self, grid, args, kwargs, config, stream=None):
        return self.fn.run(grid, args, {**kwargs, **config.all_kwargs()},
                           stream)

    @property
    def best_config(self):
        return next(reversed(self.best.values()), None) if self.best else None

    def warmup(self, *args, **kwargs):
        """Compiles every (pruned) config for these arguments without
        launching; returns the launchers of those that compiled."""
        _, named = self._key_of(args, kwargs)
        compiled, _ = self._compile_all(self._pruned(named, kwargs), args,
                                        kwargs, _Progress(self.__name__, 0))
        return [compiled[c] for c in compiled]

    # -- the key ------------------------------------------------------------
    def _key_of(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        values = []
        for name in self.key:
            value = named.get(name)
            values.append(str(value.dtype) if hasattr(value, "data_ptr")
                          else value)
        # As Triton: the dtype of every tensor argument is part of the key.
        values += [str(v.dtype) for v in named.values()
                   if hasattr(v, "data_ptr") and hasattr(v, "dtype")]
        return tuple(values), named

    # -- tuning -------------------------------------------------------------
    def _pruned(self, named, kwargs):
        configs = list(self.configs)
        prune = self.prune_configs_by.get("early_config_prune")
        if prune is not None:
            configs = list(prune(configs, named, **kwargs))
        model = self.prune_configs_by.get("perf_model")
        top_k = self.prune_configs_by.get("top_k")
        if model is not None and top_k:
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(configs) * top_k))
            configs.sort(key=lambda c: model(**named, **c.all_kwargs()))
            configs = configs[:top_k]
        if not configs:
            raise RuntimeError(f"txl.autotune: pruning left no config of "
                               f"{self.__name__}")
        return configs

    def _compile_all(self, configs, args, kwargs, progress):
        """{config: launcher} for the configs that compile, and
        {config: ConfigFailure} for those that do not."""
        compiled, failed = {}, {}

        def build(config, call_args, call_kwargs):
            return self.fn.warmup(*call_args,
                                  **{**call_kwargs, **config.all_kwargs()})

        jit_function = self._jit_function()
        if isinstance(jit_function, JITFunction):
            jit_function.source()  # gathered once, before the threads share it
        workers = max(1, min(len(configs), os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            futures = {pool.submit(build, c, *self._args_after_hooks(
                c, args, kwargs)): c for c in configs}
            for done, future in enumerate(
                    concurrent.futures.as_completed(futures), 1):
                config = futures[future]
                try:
                    compiled[config] = future.result()
                except Exception as e:  # reported per config, not raised
                    failed[config] = classify_failure(e, "compile")
                progress.step("compiling", done)
        return compiled, failed

    def _args_after_hooks(self, config, args, kwargs):
        """The arguments as `config` compiles them: its pre-hooks run first
        (here, one config at a time), because a hook may change argument
        types -- Triton's attention tutorial sets its tensor descriptors'
        block shapes in one. Descriptors are copied after the hook, so the
        next config's hook does not change what this one compiles."""
        if not (config.pre_hook or self.user_pre_hook):
            return args, kwargs
        _, named = self._key_of(args, kwargs)
        full = {**named, **config.all_kwargs()}
        if self.user_pre_hook:
            self.user_pre_hook(full)
        if config.pre_hook:
            config.pre_hook(full)

        def snapshot(value):
            return copy.copy(value) if hasattr(value, "block_shape") else value
        return (tuple(snapshot(a) for a in args),
                {k: snapshot(v) for k, v in kwargs.items()})

    def _tune(self, grid, args, kwargs, named):
        configs = self._pruned(named, kwargs)
        if len(configs) == 1:
            self.configs_timings = {configs[0]: None}
            return configs[0]
        started = time.perf_counter()
        progress = _Progress(self.__name__, len(configs))
        saved = {n: named[n].clone() for n in self.restore_value}
        try:
            _, timings = self._compile_all(configs, args, kwargs, progress)
            gpu = _gpu_name()
            for done, config in enumerate(configs, 1):
                if config not in timings:
                    timings[config] = (ConfigFailure("no GPU", "")
                                       if gpu is None else self._time_one(
                                           config, grid, args, kwargs, named,
                                           saved))
                progress.step("timing", done)
        finally:
            progress.close()
            # The real launch starts from the caller's values, as Triton's.
            for name, value in saved.items():
                named[name].copy_(value)
            for name in self.reset_to_zero:
                named[name].zero_()
        self.bench_time = time.perf_counter() - started
        self.configs_timings = timings
        ok = {c: t for c, t in timings.items() if isinstance(t, float)}
        if _print_autotuning():
            self._print_table(configs, timings)
        if not ok:
            reasons = "; ".join(f"{c}: {timings[c]}" for c in configs)
            raise RuntimeError(f"txl.autotune: no config of {self.__name__} "
                               f"compiled and ran ({reasons})")
        best = min(ok, key=ok.get)
        self._store_cached(self._key_of(args, kwargs)[0], best, configs)
        return best

    def _prepare(self, config, named, saved):
        for name in self.reset_to_zero:
            named[name].zero_()
        for name, value in saved.items():
            named[name].copy_(value)
        full = {**named, **config.all_kwargs()}
        if self.user_pre_hook:
            self.user_pre_hook(full)
        if config.pre_hook:
            config.pre_hook(full)

    def _time_one(self, config, grid, args, kwargs, named, saved):
        """The config's time in ms, or a ConfigFailure."""
        def call():
            self._prepare(config, named, saved)
            error = None
            try:
                self._launch(grid, args, kwargs, config)
            except Exception as e:
                error = e
                raise
            finally:
                if self.post_hook:
                    self.post_hook({**named, **config.all_kwargs()}, error)

        try:
            call()
            if self.check is not None:
                _synchronize()
                if self.check(named) is False:
                    raise WrongResult("check() returned False")
            return float(self._do_bench(call))
        except Exception as e:  # reported per config, not raised
            return classify_failure(e, "run")

    def _do_bench(self, call):
        if self.custom_do_bench is not None:
            return self.custom_do_bench(call, quantiles=None)
        from .testing import do_bench
        return do_bench(call, warmup=self.num_warmups, rep=self.rep)

    # -- reporting and the on-disk cache -------------------------------------
    def _print_table(self, configs, timings):
        ok = {c: t for c, t in timings.items() if isinstance(t, float)}
        best = min(ok, key=ok.get) if ok else None
        lines = [f"txl.autotune {self.__name__}: {len(configs)} configs in "
                 f"{self.bench_time:.2f} s"]
        for config in configs:
            value = timings[config]
            shown = f"{value:9.4f} ms" if isinstance(value, float) else str(
                value)
            mark = " <- best" if config is best else ""
            lines.append(f"  {config}: {shown}{mark}")
        print("\n".join(lines), file=sys.stderr)

    def _report_choice(self, config):
        if _print_autotuning():
            print(f"txl.autotune {self.__name__}: using {config}",
                  file=sys.stderr)

    def _cache_file(self, key, configs):
        gpu = _gpu_name()
        if not self.cache_results or gpu is None:
            return None
        try:
            source = self._source_text()
        except Exception:  # no source to hash: do not cache
            return None
        text = json.dumps([source, [repr(c) for c in configs],
                           [repr(k) for k in key], gpu])
        digest = hashlib.sha256(text.encode()).hexdigest()
        return os.path.join(_cache_dir(), f"{self.__name__}-{digest}.json")

    def _jit_function(self):
        """The JITFunction under any wrappers (heuristics, Triton's)."""
        fn = self.fn
        while not isinstance(fn, JITFunction) and hasattr(fn, "fn"):
            fn = fn.fn
        return fn

    def _source_text(self):
        return self._jit_function().source()[0]

    def _load_cached(self, key, named, kwargs):
        if not self.cache_results:
            return None
        configs = self._pruned(named, kwargs)
        path = self._cache_file(key, configs)
        if path is None or not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                index = json.load(f)["best"]
            return configs[index]
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return None  # a stale or corrupt entry: tune again

    def _store_cached(self, key, best, configs):
        path = self._cache_file(key, configs)
        if path is None:
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump({"best": configs.index(best), "config": repr(best)}, f)
        os.replace(tmp, path)


def _print_autotuning():
    return os.environ.get("TXL_PRINT_AUTOTUNING", "") not in ("", "0")


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
             restore_value=None, pre_hook=None, post_hook=None, warmup=None,
             rep=None, use_cuda_graph=False, do_bench=None,
             cache_results=False, check=None):
    """Decorator: `@txl.autotune(configs=[txl.Config(...), ...], key=[...])`
    over a `@txl.jit` kernel, with triton.autotune's arguments
    (`use_cuda_graph` is accepted and has no effect)."""
    def decorator(fn):
        return Autotuner(fn, configs, key, prune_configs_by=prune_configs_by,
                         reset_to_zero=reset_to_zero,
                         restore_value=restore_value, pre_hook=pre_hook,
                         post_hook=post_hook, warmup=warmup, rep=rep,
                         cache_results=cache_results, do_bench=do_bench,
                         check=check)
    return decorator


class Heuristics:
    """What `@txl.heuristics({...})` returns: meta-parameters computed from
    the named call arguments before each launch."""

    def __init__(self, fn, values):
        self.fn = fn
        self.values = dict(values)
        self.arg_names = fn.arg_names
        self.__name__ = fn.__name__

    def _with_heuristics(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        extra = {k: v(named) for k, v in self.values.items()}
        return {**kwargs, **extra}

    def run(self, grid, args, kwargs, stream=None):
        return self.fn.run(grid, args, self._with_heuristics(args, kwargs),
                           stream)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid, args, kwargs)

    def warmup(self, *args, **kwargs):
        return self.fn.warmup(*args, **self._with_heuristics(args, kwargs))

    def source(self):
        return self.fn.source()


def heuristics(values):
    """Decorator: `@txl.heuristics({'BLOCK': lambda args: ...})`."""
    return lambda fn: Heuristics(fn, values)
