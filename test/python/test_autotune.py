"""txl.autotune's behaviour without a GPU: a stand-in kernel records what it
is asked to compile and run, and a stand-in do_bench returns a time per
config, so pruning, hooks, failure reasons, the key and the on-disk cache
are checked exactly. The GPU test (test/gpu/test_autotune_gpu.py) tunes a
real kernel."""

import importlib
import io
import json
import os
import threading

import pytest

import txl
from txl._capi import CompilationError

# `txl.autotune` is the decorator; the module is reached by its full name.
autotune_module = importlib.import_module("txl.autotune")


class FakeTensor:
    """Just enough of a torch tensor for reset_to_zero / restore_value."""

    def __init__(self, values, dtype="torch.float32"):
        self.values = list(values)
        self.dtype = dtype

    def data_ptr(self):
        return id(self)

    def zero_(self):
        self.values = [0] * len(self.values)

    def clone(self):
        return FakeTensor(self.values, self.dtype)

    def copy_(self, other):
        self.values = list(other.values)


class FakeKernel:
    """A @txl.jit stand-in: `fails` maps BLOCK values to the exception its
    compile raises; every run appends BLOCK to `runs`."""

    arg_names = ["x", "out", "n", "BLOCK"]
    __name__ = "fake_kernel"

    def __init__(self, fails=None, run_error=None):
        self.fails = fails or {}
        self.run_error = run_error or {}
        self.compiled = []
        self.runs = []
        self.threads = set()
        self.lock = threading.Lock()

    def warmup(self, *args, grid=None, **kwargs):
        with self.lock:
            self.threads.add(threading.get_ident())
            self.compiled.append(kwargs["BLOCK"])
        if kwargs["BLOCK"] in self.fails:
            raise self.fails[kwargs["BLOCK"]]
        return f"launcher-{kwargs['BLOCK']}"

    def run(self, grid, args, kwargs, stream=None):
        block = kwargs["BLOCK"]
        if block in self.run_error:
            raise self.run_error[block]
        named = dict(zip(self.arg_names, args), **kwargs)
        named["out"].values[0] += block  # visible to restore/reset checks
        self.runs.append(block)


def bench_by_block(times):
    """A do_bench stand-in: calls the function once, returns times[BLOCK]."""
    state = {}

    def do_bench(call, quantiles=None):
        call()
        return times[state["block"]]
    return do_bench, state


@pytest.fixture(autouse=True)
def fake_gpu(monkeypatch, tmp_path):
    monkeypatch.setattr(autotune_module, "_gpu_name", lambda: "FakeGPU sm_90")
    monkeypatch.setenv("TXL_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TXL_PRINT_AUTOTUNING", raising=False)


def configs(*blocks, **launch):
    return [txl.Config({"BLOCK": b}, **launch) for b in blocks]


def tuned(kernel, blocks, times, **kw):
    do_bench, state = bench_by_block(times)

    def pre_hook(named):
        state["block"] = named["BLOCK"]
    return txl.autotune(configs(*blocks), key=["n"], do_bench=do_bench,
                        pre_hook=pre_hook, **kw)(kernel)


def test_picks_the_fastest_and_caches_it_per_key():
    kernel = FakeKernel()
    tuner = tuned(kernel, [32, 64, 128], {32: 3.0, 64: 1.0, 128: 2.0})
    x, out = FakeTensor([1]), FakeTensor([0])
    tuner[(1,)](x, out, 100)
    assert tuner.best_config.kwargs == {"BLOCK": 64}
    assert sorted(kernel.compiled) == [32, 64, 128]
    runs = len(kernel.runs)
    tuner[(1,)](x, out, 100)  # same key: no tuning, one launch with 64
    assert kernel.runs[runs:] == [64]
    tuner[(1,)](x, out, 200)  # new key: tuned again
    assert len(kernel.runs) > runs + 1


def test_tensor_dtypes_are_part_of_the_key():
    kernel = FakeKernel()
    tuner = tuned(kernel, [32, 64], {32: 1.0, 64: 2.0})
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    tuner[(1,)](FakeTensor([1], "torch.float16"), FakeTensor([0]), 8)
    assert len(tuner.best) == 2


def test_failure_reasons_per_config(monkeypatch):
    kernel = FakeKernel(
        fails={32: CompilationError(2, "k.py:3:4: error: bad\n  x\n  ^"),
               64: CompilationError(2, "uses 300000 bytes of shared memory, "
                                    "more than the 232448 available")},
        run_error={128: RuntimeError("CUDA error: an illegal memory access")})
    monkeypatch.setenv("TXL_PRINT_AUTOTUNING", "1")
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    tuner = tuned(kernel, [32, 64, 128, 256],
                  {32: 0.1, 64: 0.1, 128: 0.1, 256: 5.0})
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    assert tuner.best_config.kwargs == {"BLOCK": 256}
    reasons = {c.kwargs["BLOCK"]: t for c, t in tuner.configs_timings.items()}
    assert reasons[32].kind == "compile error"
    assert "k.py:3:4: error: bad" == reasons[32].message
    assert reasons[64].kind == "out of resources"
    assert reasons[128].kind == "launch error"
    assert reasons[256] == 5.0
    table = err.getvalue()
    assert "compile error: k.py:3:4" in table
    assert "out of resources" in table and "<- best" in table
    assert "using Config(BLOCK: 256" in table


def test_all_failing_is_an_error_naming_each_reason():
    kernel = FakeKernel(fails={32: CompilationError(2, "e1"),
                               64: CompilationError(2, "e2")})
    tuner = tuned(kernel, [32, 64], {})
    with pytest.raises(RuntimeError, match="e1.*e2|e2.*e1"):
        tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)


def test_no_gpu_is_a_reason(monkeypatch):
    monkeypatch.setattr(autotune_module, "_gpu_name", lambda: None)
    tuner = tuned(FakeKernel(), [32, 64], {32: 1.0, 64: 2.0})
    with pytest.raises(RuntimeError, match="no GPU"):
        tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)


def test_check_marks_wrong_results():
    kernel = FakeKernel()
    tuner = tuned(kernel, [32, 64], {32: 1.0, 64: 2.0},
                  check=lambda named: named["out"].values[0] != 32)
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8, )
    timings = {c.kwargs["BLOCK"]: t for c, t in tuner.configs_timings.items()}
    assert timings[32].kind == "wrong result"
    assert tuner.best_config.kwargs == {"BLOCK": 64}


def test_reset_to_zero_and_restore_value():
    kernel = FakeKernel()
    seen = []

    def post_hook(named, exception):
        seen.append((named["BLOCK"], list(named["out"].values), exception))
    out = FakeTensor([7])
    tuner = tuned(kernel, [32, 64], {32: 1.0, 64: 2.0},
                  restore_value=["out"], post_hook=post_hook)
    tuner[(1,)](FakeTensor([1]), out, 8)
    # Each timed run starts from the saved 7: 7 + 32, 7 + 64.
    assert (32, [39], None) in seen and (64, [71], None) in seen
    # After tuning `out` is restored, then the real launch adds 32 once.
    assert out.values == [39]
    zeroed = FakeTensor([7])
    tuner = tuned(FakeKernel(), [32, 64], {32: 1.0, 64: 2.0},
                  reset_to_zero=["out"])
    tuner[(1,)](FakeTensor([1]), zeroed, 8)
    assert zeroed.values == [32]  # zeroed again before the real launch


def test_prune_configs_by():
    kernel = FakeKernel()

    def early(configs, named, **kwargs):
        return [c for c in configs if c.kwargs["BLOCK"] <= named["n"]]

    def model(**meta):
        return -meta["BLOCK"]  # predicts bigger blocks faster
    tuner = tuned(kernel, [16, 32, 64, 128], {16: 4.0, 32: 3.0, 64: 2.0},
                  prune_configs_by={"early_config_prune": early,
                                    "perf_model": model, "top_k": 2})
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 64)
    assert sorted(kernel.compiled) == [32, 64]
    assert tuner.best_config.kwargs == {"BLOCK": 64}


def test_configs_compile_on_several_threads(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    barrier = threading.Barrier(2, timeout=10)

    class Slow(FakeKernel):
        def warmup(self, *args, **kwargs):
            if kwargs["BLOCK"] in (32, 64):
                barrier.wait()  # deadlocks (times out) if compiled serially
            return super().warmup(*args, **kwargs)
    kernel = Slow()
    tuner = tuned(kernel, [32, 64], {32: 1.0, 64: 2.0})
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    assert len(kernel.threads) == 2


def test_cache_results_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(autotune_module.Autotuner, "_source_text",
                        lambda self: "def fake_kernel(): pass")
    kernel = FakeKernel()
    tuner = tuned(kernel, [32, 64], {32: 2.0, 64: 1.0}, cache_results=True)
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    files = list((tmp_path / "autotune").iterdir())
    assert len(files) == 1
    assert json.loads(files[0].read_text())["best"] == 1
    # A new process (a new autotuner) reads the choice instead of tuning.
    fresh = FakeKernel()
    again = tuned(fresh, [32, 64], {32: 2.0, 64: 1.0}, cache_results=True)
    again[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    assert fresh.compiled == [] and fresh.runs == [64]
    # A corrupt entry is ignored: the kernel is tuned again.
    files[0].write_text("{")
    third = FakeKernel()
    tuned(third, [32, 64], {32: 2.0, 64: 1.0},
          cache_results=True)[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    assert sorted(third.compiled) == [32, 64]


def test_heuristics_feed_meta_parameters():
    kernel = FakeKernel()
    wrapped = txl.heuristics({"BLOCK": lambda a: 16 * a["n"]})(kernel)
    wrapped[(1,)](FakeTensor([1]), FakeTensor([0]), 2)
    assert kernel.runs == [32]


def test_single_config_is_not_timed():
    kernel = FakeKernel()
    tuner = tuned(kernel, [32], {})
    tuner[(1,)](FakeTensor([1]), FakeTensor([0]), 8)
    assert kernel.compiled == [] and kernel.runs == [32]


def test_wraps_only_kernels():
    with pytest.raises(TypeError, match="@txl.jit"):
        txl.autotune(configs(32), key=[])(lambda: None)


class FakeDescriptor:
    """A tensor-descriptor stand-in: what a compile sees is block_shape."""

    def __init__(self):
        self.block_shape = [1, 1]


class ShapeRecordingKernel(FakeKernel):
    """Records the block shape of argument x that each config compiles."""

    def __init__(self):
        super().__init__()
        self.shapes = {}

    def warmup(self, *args, grid=None, **kwargs):
        self.shapes[kwargs["BLOCK"]] = list(args[0].block_shape)
        return super().warmup(*args, grid=grid, **kwargs)


def test_config_pre_hook_runs_before_its_compile():
    """Triton's attention tutorial sets its descriptors' block shapes in each
    config's pre_hook: the parallel pre-compile must see that config's
    shape, not the dummy one nor another config's."""
    kernel = ShapeRecordingKernel()
    do_bench, state = bench_by_block({32: 2.0, 64: 1.0})

    def set_block(named):
        named["x"].block_shape = [named["BLOCK"], 16]
        state["block"] = named["BLOCK"]
    tuner = txl.autotune([txl.Config({"BLOCK": b}, pre_hook=set_block)
                          for b in (32, 64)], key=["n"],
                         do_bench=do_bench)(kernel)
    desc = FakeDescriptor()
    tuner[(1,)](desc, FakeTensor([0]), 100)
    assert kernel.shapes == {32: [32, 16], 64: [64, 16]}
    assert tuner.best_config.kwargs == {"BLOCK": 64}
    assert desc.block_shape == [64, 16]  # the launch ran the best's hook
