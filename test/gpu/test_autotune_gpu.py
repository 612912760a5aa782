"""txl.autotune on the GPU: real compiles (in parallel), a config that does
not compile, reset_to_zero on an atomic accumulation, the printed table,
heuristics, and the on-disk cache. The exact semantics are checked without
a GPU in test/python/test_autotune.py."""

import importlib

import pytest
import torch

import txl
import txl_kernels_autotune as k
from conftest import real_compiler

autotune_module = importlib.import_module("txl.autotune")
pytestmark = real_compiler


def sum_configs():
    return [txl.Config({"BLOCK": b}, num_warps=w)
            for b, w in ((128, 4), (1024, 4), (2048, 8), (8192, 8))]


def test_tunes_a_real_kernel(monkeypatch, capsys):
    monkeypatch.setenv("TXL_PRINT_AUTOTUNING", "1")
    tuner = txl.autotune(sum_configs(), key=["n"], reset_to_zero=["out_ptr"],
                         warmup=2, rep=5)(k.sum_into)
    n = 100_003
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    out = torch.full((1,), float("nan"), device="cuda")  # poisoned
    grid = lambda meta: (txl.cdiv(n, meta["BLOCK"]),)
    tuner[grid](x, out, n)
    torch.cuda.synchronize()
    # One launch's sum, not the timing runs' (reset_to_zero before it).
    ref = x.double().sum().item()
    assert abs(out.item() - ref) <= 1e-3 * max(1.0, abs(ref))
    timings = {c.kwargs["BLOCK"]: t for c, t in tuner.configs_timings.items()}
    assert timings[8192].kind == "compile error"
    assert "BLOCK too large" in timings[8192].message
    assert all(isinstance(timings[b], float) for b in (128, 1024, 2048))
    assert tuner.best_config.kwargs["BLOCK"] != 8192
    err = capsys.readouterr().err
    assert "4 configs in" in err and "<- best" in err and "using Config" in err


def test_heuristics_under_autotune():
    configs = [txl.Config({}, num_warps=w) for w in (2, 4)]
    tuner = txl.autotune(configs, key=["n"], warmup=2, rep=5)(
        txl.heuristics({"BLOCK": lambda a: 256 if a["n"] < 4096 else 1024})(
            k.scale))
    for n in (1000, 5000):
        x = torch.randn(n, device="cuda")
        y = torch.full_like(x, float("nan"))
        tuner[lambda meta: (txl.cdiv(n, meta["BLOCK"]),)](x, y, n, 3.0)
        torch.testing.assert_close(y, x * 3.0)
    assert len(tuner.best) == 2  # n is the key: tuned per size


def test_cache_results_skips_tuning_next_time(tmp_path, monkeypatch):
    monkeypatch.setenv("TXL_CACHE_DIR", str(tmp_path))
    configs = [txl.Config({"BLOCK": b}) for b in (256, 512)]
    n = 70_000
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    grid = lambda meta: (txl.cdiv(n, meta["BLOCK"]),)
    first = txl.autotune(configs, key=["n"], cache_results=True, warmup=2,
                         rep=5)(k.scale)
    first[grid](x, y, n, 2.0)
    assert len(first.configs_timings) == 2
    assert len(list((tmp_path / "autotune").iterdir())) == 1
    second = txl.autotune(configs, key=["n"], cache_results=True)(k.scale)
    y.fill_(float("nan"))
    second[grid](x, y, n, 2.0)
    assert second.configs_timings == {}  # read from disk, not tuned
    assert second.best_config.kwargs == first.best_config.kwargs
    torch.testing.assert_close(y, x * 2.0)
