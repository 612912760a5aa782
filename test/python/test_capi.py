"""The Python package over the real C API (libtxl_fake.so: real runtime,
cache and launcher; a stand-in compiler that emits a PTX vector add)."""

import json
import os
import struct

import pytest

import txl
from txl import _capi
from conftest import FakeTensor, needs_fake_lib, needs_lib

import kernels_for_tests as K


@needs_lib
def test_version_and_cache_dir():
    assert txl.version().startswith("txl ")
    assert txl.cache_dir() == os.environ["TXL_CACHE_DIR"]


@needs_fake_lib
def test_compile_returns_artifacts_and_metadata():
    k = txl.compile(K.add, signature={"x": "*fp32:16", "y": "*fp32:16",
                                      "out": "*fp32:16", "n": "i32"},
                    constexprs={"BLOCK": 1024}, target="sm_80", num_warps=2)
    assert set(k.asm) >= {"txlir", "txlgir", "llir", "ptx", "json"}
    assert ".entry add" in k.asm["ptx"]
    assert "cubin" not in k.asm  # the fake leaves PTX to the driver
    assert k.metadata["target"] == "sm_80"
    assert k.metadata["num_warps"] == 2
    assert [p["type"] for p in k.metadata["params"]] == ["ptr"] * 3 + ["i32"]
    assert k.metadata["cubin_producer"] == "driver"
    # The string form and the dict form are the same compile (a cache hit).
    again = txl.compile(K.add, "*fp32:16,*fp32:16,*fp32:16,i32,1024",
                        target="sm_80", num_warps=2)
    assert again.metadata["cache_hit"] is True
    assert again.metadata["cache_key"] == k.metadata["cache_key"]


@needs_lib
def test_compile_errors():
    with pytest.raises(txl.TxlError, match="bad signature"):
        txl.compile(K.add, "*fp32:16,*nope,*fp32,i32,4")
    with pytest.raises(TypeError, match="needs a value"):
        txl.compile(K.add, {"x": "*fp32", "y": "*fp32", "out": "*fp32",
                            "n": "i32"})
    with pytest.raises(TypeError, match="no parameter"):
        txl.compile(K.add, {"z": "*fp32"})
    with pytest.raises(TypeError, match="unknown options"):
        txl.compile(K.add, "*fp32,*fp32,*fp32,i32,4", num_warp=4)


@needs_fake_lib
def test_compilation_error_carries_diagnostics():
    def not_in_any_file(x):  # inspect finds this file; the name is absent
        pass
    not_in_any_file.__name__ = "no_such_kernel"
    with pytest.raises(txl.CompilationError, match="error: no kernel named"):
        txl.compile(not_in_any_file, "*fp32")


@needs_fake_lib
def test_jit_compiles_through_the_library_and_packs_the_launch(monkeypatch):
    K.add.cache.clear()
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(12288)
    launcher = K.add.warmup(x, y, o, 100, BLOCK=64)
    assert launcher.metadata["name"] == "add"
    seen = []

    def record(buffer):
        seen.append(struct.unpack_from("<QQIIIiQ", buffer, 0))
        return 0

    launcher._call = record
    K.add[(5, 1, 2)](x, y, o, 100, BLOCK=64)
    kernel, stream, gx, gy, gz, nargs, args = seen[0]
    assert kernel == launcher.handle
    assert (gx, gy, gz, nargs) == (5, 1, 2, 4)


@needs_fake_lib
def test_launch_reaches_the_driver_loader():
    from txl import _capi
    try:
        _capi.device_capability()
        pytest.skip("a CUDA driver is present")
    except txl.TxlError as e:
        assert e.status == 3
    K.add.cache.clear()
    x = FakeTensor(4096)
    with pytest.raises(txl.TxlError, match="CUDA driver"):
        K.add[(1,)](x, x, x, 10, BLOCK=32)


@needs_fake_lib
def test_dump_dir_and_always_compile(tmp_path, monkeypatch):
    monkeypatch.setenv("TXL_DUMP_DIR", str(tmp_path))
    monkeypatch.setenv("TXL_ALWAYS_COMPILE", "1")
    k = txl.compile(K.add, "*fp32,*fp32,*fp32,i32,8", target="sm_90a")
    assert k.metadata["cache_hit"] is False
    assert (tmp_path / "add.ptx").read_text() == k.asm["ptx"]
    assert json.loads((tmp_path / "add.json").read_text())["name"] == "add"


@needs_lib
def test_tensor_map_validation_errors():
    class T2D:
        shape = (64, 64)
        dtype = "torch.float16"

        def stride(self):
            return (64, 1)

        def element_size(self):
            return 2

        def data_ptr(self):
            return 1 << 20

    with pytest.raises(txl.TxlError, match="swizzle"):
        txl.make_tensor_map(T2D(), [64, 64], swizzle_bytes=64)
    with pytest.raises(ValueError):
        txl.make_tensor_map(T2D(), [64], swizzle_bytes=128)
