"""txl.autotune / txl.Config: pick the fastest config per key, like
triton.autotune (benchmarked with txl.testing.do_bench)."""

from .jit import JITFunction, LAUNCH_OPTIONS


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_warpgroups=1,
                 num_ctas=1, maxnreg=0, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_warpgroups = num_warpgroups
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        options = {o: getattr(self, o) for o in LAUNCH_OPTIONS}
        return {**self.kwargs, **options}

    def __repr__(self):
        items = ", ".join(f"{k}: {v}" for k, v in self.all_kwargs().items())
        return f"Config({items})"


class Autotuner:
    def __init__(self, fn, configs, key, warmup=25, rep=100, reset_to_zero=()):
        if not (isinstance(fn, JITFunction) or (hasattr(fn, "run") and
                                                hasattr(fn, "arg_names"))):
            raise TypeError("txl.autotune must wrap a @txl.jit kernel")
        self.fn = fn
        self.configs = list(configs)
        self.key = list(key)
        self.num_warmups = warmup  # ms, as triton.autotune's warmup=
        self.rep = rep
        self.reset_to_zero = list(reset_to_zero)
        self.best = {}  # key values -> Config
        self.__name__ = fn.__name__

    def _key_of(self, args, kwargs):
        named = dict(zip(self.fn.arg_names, args))
        named.update(kwargs)
        values = []
        for name in self.key:
            value = named.get(name)
            values.append(str(value.dtype) if hasattr(value, "data_ptr")
                          else value)
        return tuple(values), named

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid, args, kwargs)

    def run(self, grid, args, kwargs):
        key, named = self._key_of(args, kwargs)
        config = self.best.get(key)
        if config is None:
            config = self._tune(grid, args, kwargs, named)
            self.best[key] = config
        if config.pre_hook:
            config.pre_hook({**named, **config.all_kwargs()})
        return self.fn.run(grid, args, {**kwargs, **config.all_kwargs()})

    def _tune(self, grid, args, kwargs, named):
        if len(self.configs) == 1:
            return self.configs[0]
        from .testing import do_bench
        timings = {}
        for config in self.configs:
            def call(config=config):
                for name in self.reset_to_zero:
                    named[name].zero_()
                if config.pre_hook:
                    config.pre_hook({**named, **config.all_kwargs()})
                self.fn.run(grid, args, {**kwargs, **config.all_kwargs()})
            try:
                timings[config] = do_bench(call, warmup=self.num_warmups,
                                           rep=self.rep)
            except Exception:  # a config that does not compile or fit
                timings[config] = float("inf")
        best = min(timings, key=timings.get)
        if timings[best] == float("inf"):
            raise RuntimeError(f"txl.autotune: no config of {self.__name__} "
                               "compiled and ran")
        return best


def autotune(configs, key, warmup=25, rep=100, reset_to_zero=()):
    def decorator(fn):
        return Autotuner(fn, configs, key, warmup, rep, reset_to_zero)
    return decorator
