"""@txl.jit(diff_mode=, diff_select=, log_dir=, src_file=): the options
reach the compiler, and the pass list / the chosen pass's diff come back
from the dump files the compiler writes (here a stand-in writes them)."""

import json
import os

import pytest

import txl
from txl import _capi
from conftest import FakeTensor

import kernels_for_tests as K

DUMPS = {
    "txlgir-00-input.mlir": "module {\n  op.a\n}\n",
    "txlgir-01-txlgpu-combine-dot-accumulate.mlir": "module {\n  op.a\n}\n",
    "txlgir-02-txl-assign-layouts.mlir": "module {\n  op.a #blocked\n}\n",
    "txlir-00-input.mlir": "module {}\n",
}


@pytest.fixture
def compiles(monkeypatch):
    seen = []

    def compile_(source, filename, name, signature, options_json):
        options = json.loads(options_json)
        seen.append(options)
        for file, text in DUMPS.items():
            if "print_after_all" in options:
                with open(os.path.join(options["print_after_all"], file),
                          "w") as f:
                    f.write(text)
        return 6000 + len(seen)

    params = [{"name": n, "type": "ptr", "size": 8} for n in ("x", "y", "out")]
    params.append({"name": "n", "type": "i32", "size": 4})
    monkeypatch.setattr(_capi, "compile", compile_)
    monkeypatch.setattr(_capi, "kernel_metadata",
                        lambda h: json.dumps({"name": "add", "params": params}))
    monkeypatch.setattr(_capi, "kernel_free", lambda h: None)
    monkeypatch.setattr(_capi, "kernel_artifact", lambda h, kind: None)
    monkeypatch.setattr(_capi, "fast_launch_function",
                        lambda: (lambda buffer: 0))
    return seen


def warm(kernel):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(12288)
    return kernel.warmup(x, y, o, 1000, BLOCK=128, grid=(1,))


def test_diff_select_writes_and_prints_the_pass_diff(compiles, tmp_path,
                                                      capsys):
    kernel = txl.jit(K.add.fn, diff_mode="txlgir", diff_select=2,
                     log_dir=str(tmp_path))
    warm(kernel)
    assert compiles[-1]["print_after_all"] == str(tmp_path / "passes-add")
    diff = (tmp_path / "add.txlgir.pass2.diff").read_text()
    assert "-  op.a\n" in diff and "+  op.a #blocked\n" in diff
    err = capsys.readouterr().err
    assert "pass 2 of txlgir (txl-assign-layouts)" in err
    assert "+  op.a #blocked" in err


def test_without_diff_select_the_stage_passes_are_listed(compiles, capsys):
    warm(txl.jit(K.add.fn, diff_mode="txlgir"))
    err = capsys.readouterr().err
    assert "1  txlgpu-combine-dot-accumulate" in err
    assert "2  txl-assign-layouts" in err
    assert "input" not in err.split("\n", 1)[1]


def test_src_file_reaches_the_compiler(compiles, tmp_path):
    ptx = tmp_path / "k.ptx"
    ptx.write_text("// hand-edited\n")
    warm(txl.jit(K.add.fn, src_file=str(ptx)))
    assert compiles[-1]["ptx_override"] == str(ptx)
    assert "print_after_all" not in compiles[-1]


def test_bad_debug_options_are_refused():
    with pytest.raises(ValueError, match="has no passes"):
        txl.jit(K.add.fn, diff_mode="ptx")
    with pytest.raises(ValueError, match="must be one of"):
        txl.jit(K.add.fn, diff_mode="ttir")
    with pytest.raises(TypeError, match="needs diff_mode"):
        txl.jit(K.add.fn, diff_select=3)
    with pytest.raises(ValueError, match="pass number"):
        txl.jit(K.add.fn, diff_mode="llir", diff_select=0)


def test_a_pass_that_did_not_run(compiles, tmp_path):
    kernel = txl.jit(K.add.fn, diff_mode="txlgir", diff_select=9,
                     log_dir=str(tmp_path))
    with pytest.raises(ValueError, match="has no pass 9"):
        warm(kernel)
