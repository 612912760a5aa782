"""ptxas's report reaches Python: n_regs / n_spills / ptxas_warnings on
the launcher that warmup returns, asm on it, and a warning per compile."""

import json
import warnings

import pytest

import txl
from txl import _capi
from txl.jit import TxlAssemblerWarning
from conftest import FakeTensor

import kernels_for_tests as K


def fake_compiler(monkeypatch, cache_hit):
    params = [{"name": n, "type": "ptr", "size": 8} for n in ("x", "y", "out")]
    params.append({"name": "n", "type": "i32", "size": 4})
    metadata = {
        "name": "add", "params": params, "source_file": "kernels.py",
        "n_regs": 168, "n_spills": 24, "cache_hit": cache_hit,
        "ptxas_warnings": [
            {"code": "C7510", "message": "wgmma serialized",
             "ptx_line": 812, "source_line": 57},
            {"code": "", "message": "no line", "ptx_line": 0,
             "source_line": 0}]}
    monkeypatch.setattr(_capi, "compile", lambda *a: 7001)
    monkeypatch.setattr(_capi, "kernel_metadata",
                        lambda h: json.dumps(metadata))
    monkeypatch.setattr(_capi, "kernel_free", lambda h: None)
    monkeypatch.setattr(_capi, "kernel_artifact",
                        lambda h, kind: b".entry add" if kind == "ptx" else None)
    monkeypatch.setattr(_capi, "fast_launch_function",
                        lambda: (lambda buffer: 0))


def warm(kernel):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(12288)
    return kernel.warmup(x, y, o, 1000, BLOCK=128, grid=(1,))


def test_report_and_asm_on_the_launcher(monkeypatch):
    fake_compiler(monkeypatch, cache_hit=False)
    with pytest.warns(TxlAssemblerWarning) as caught:
        launcher = warm(txl.jit(K.add.fn))
    assert launcher.n_regs == 168
    assert launcher.n_spills == 24
    assert launcher.ptxas_warnings[0]["code"] == "C7510"
    assert launcher.asm == {"ptx": ".entry add"}
    messages = [str(w.message) for w in caught]
    assert messages[0] == ("kernels.py:57: kernel 'add': ptxas C7510: "
                           "wgmma serialized")
    assert messages[1] == "kernels.py: kernel 'add': ptxas: no line"


def test_no_warning_on_a_cache_hit(monkeypatch):
    fake_compiler(monkeypatch, cache_hit=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TxlAssemblerWarning)
        launcher = warm(txl.jit(K.add.fn))
    assert launcher.n_regs == 168
