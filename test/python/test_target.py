"""Choosing the GPU target per kernel object: txl.jit(target=) and
$TXL_TARGET, with the compiler mocked out and (where libtxl_fake.so loads)
through the real C API, whose metadata and cache key show the target."""

import json

import pytest

import txl
from txl import _capi
from conftest import FakeTensor, needs_fake_lib

import kernels_for_tests as K


@pytest.fixture
def compiles(monkeypatch):
    """Records the options JSON of every compile; metadata as the fake
    compiler would keep add's parameters."""
    seen = []

    def compile_(source, filename, name, signature, options_json):
        seen.append(json.loads(options_json))
        return 5000 + len(seen)

    params = [{"name": n, "type": "ptr", "size": 8} for n in ("x", "y", "out")]
    params.append({"name": "n", "type": "i32", "size": 4})
    monkeypatch.setattr(_capi, "compile", compile_)
    monkeypatch.setattr(_capi, "kernel_metadata",
                        lambda h: json.dumps({"name": "add", "params": params}))
    monkeypatch.setattr(_capi, "kernel_free", lambda h: None)
    monkeypatch.setattr(_capi, "kernel_artifact", lambda h, kind: None)
    monkeypatch.setattr(_capi, "fast_launch_function",
                        lambda: (lambda buffer: 0))
    monkeypatch.delenv("TXL_TARGET", raising=False)
    return seen


def launch(kernel):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(12288)
    kernel[(1,)](x, y, o, 1000, BLOCK=128)


def test_default_leaves_the_target_to_the_library(compiles):
    kernel = txl.jit(K.add.fn)
    assert kernel.target is None
    launch(kernel)
    assert "target" not in compiles[-1]
    assert "skip_cubin" not in compiles[-1]


def test_jit_target_option_reaches_the_compiler(compiles):
    kernel = txl.jit(K.add.fn, target="sm_80", num_warps=8)
    assert kernel.target == "sm_80"
    assert "target" not in kernel.options  # not a launch option
    launch(kernel)
    assert compiles[-1]["target"] == "sm_80"
    assert compiles[-1]["num_warps"] == 8
    # An sm_80 cubin would not load on a Hopper: PTX only, the driver JITs.
    assert compiles[-1]["skip_cubin"] is True
    # The decorator form too.
    assert txl.jit(target="sm_100a")(K.add.fn).target == "sm_100a"
    # GeForce Blackwell: passed through like any other target.
    geforce = txl.jit(K.add.fn, target="sm_120a")
    launch(geforce)
    assert compiles[-1]["target"] == "sm_120a"


def test_env_is_read_when_the_kernel_object_is_made(compiles, monkeypatch):
    before = txl.jit(K.add.fn)
    monkeypatch.setenv("TXL_TARGET", "sm_80")
    after = txl.jit(K.add.fn)
    explicit = txl.jit(K.add.fn, target="sm_90a")
    launch(before)
    launch(after)
    launch(explicit)
    assert [c.get("target") for c in compiles] == [None, "sm_80", "sm_90a"]
    monkeypatch.setenv("TXL_TARGET", "")  # empty: as if unset
    assert txl.jit(K.add.fn).target is None


def test_compile_target_argument_wins_over_the_kernels(compiles):
    kernel = txl.jit(K.add.fn, target="sm_80")
    first = txl.compile(kernel, "*fp32,*fp32,*fp32,i32,8")
    second = txl.compile(kernel, "*fp32,*fp32,*fp32,i32,8", target="sm_90a")
    assert [c["target"] for c in compiles] == ["sm_80", "sm_90a"]
    # An explicit compile target is a plain AOT compile: cubin as usual.
    assert [c.get("skip_cubin") for c in compiles] == [True, None]
    # Freed now, while kernel_free is still the mock: the handles are fake.
    del first, second


def test_unknown_jit_options_still_rejected():
    with pytest.raises(TypeError, match="unknown options"):
        txl.jit(K.add.fn, targets="sm_80")


@needs_fake_lib
def test_target_reaches_metadata_and_cache_key(monkeypatch):
    monkeypatch.delenv("TXL_TARGET", raising=False)
    sig = "*fp32:16,*fp32:16,*fp32:16,i32,1024"
    sm80 = txl.compile(txl.jit(K.add.fn, target="sm_80"), sig)
    sm90 = txl.compile(txl.jit(K.add.fn, target="sm_90a"), sig)
    monkeypatch.setenv("TXL_TARGET", "sm_80")
    from_env = txl.compile(txl.jit(K.add.fn), sig)
    assert sm80.metadata["target"] == "sm_80"
    assert sm90.metadata["target"] == "sm_90a"
    assert from_env.metadata["target"] == "sm_80"
    assert sm80.metadata["cubin_producer"] == "driver"
    assert "cubin" not in sm80.asm
    # Same source and signature: only the target tells the entries apart.
    assert sm80.metadata["cache_key"] != sm90.metadata["cache_key"]
    assert from_env.metadata["cache_key"] == sm80.metadata["cache_key"]
