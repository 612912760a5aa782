"""The generated launch path of kernel[grid](...) (JITFunction._launch and
Launcher._fast), with the C library mocked out: once a key is cached, each
launch must pack what the first (slow, compiling) launch would have, for
every kind of argument, grid form and option."""

import gc
import importlib
import weakref

import pytest

import txl
import txl.language as tl
from txl import _capi
from txl._launcher import Launcher
from conftest import FakeTensor
from test_jit import MockLibrary, read_args

import kernels_for_tests as K

jit_module = importlib.import_module("txl.jit")  # txl.jit is the decorator


@txl.jit
def kinds(p, i, big, f, flag, opt, q, BLOCK: tl.constexpr,
          MODE: tl.constexpr = "a"):
    pass


# Parameters named like the generated code's own locals and helpers, and
# like the builtins and module globals it uses.
@txl.jit
def odd_names(grid, _txl_e0, _txl_v0, _txl_grid, v0, e1, _stream, len,
              KeyError, BLOCK: tl.constexpr):
    pass


KINDS_FORMATS = ["<Q", "<i", "<q", "<f", "<?", "<Q"]  # opt=None is dropped


@pytest.fixture
def lib(monkeypatch):
    lib = MockLibrary()
    monkeypatch.setattr(_capi, "compile", lib.compile)
    monkeypatch.setattr(_capi, "kernel_metadata", lib.metadata)
    monkeypatch.setattr(_capi, "kernel_free", lambda handle: None)
    monkeypatch.setattr(_capi, "fast_launch_function", lib.launch_function)
    for kernel in (kinds, odd_names, K.add, K.scaled):
        kernel.cache.clear()
    return lib


def kinds_args(ptr=4096, i=7, big=2**40, f=0.5, flag=True, q=32):
    return (FakeTensor(ptr), i, big, f, flag, None,
            FakeTensor(q, "torch.float16"))


def test_cache_hits_pack_every_kind_of_argument(lib):
    variants = [kinds_args(),
                kinds_args(8192, 9, 2**40 + 16, 0.25, False, 48),
                kinds_args(1 << 20, -3, 2**41, -1.5, True, 0)]
    for args in variants:
        kinds[(3, 2)](*args, BLOCK=64)
        launch = lib.launches[-1]
        assert launch["grid"] == (3, 2, 1) and launch["nargs"] == 6
        expected = [args[0].ptr, args[1], args[2], args[3], args[4],
                    args[6].ptr]
        assert read_args(launch, KINDS_FORMATS) == expected
    # One key for all three: the later launches took the cached path.
    assert [c["signature"] for c in lib.compiles] == \
        ["*fp32:16,i32,i64:16,fp32,i1,none,*fp16:16,64,'a'"]


def test_specialization_changes_reach_the_compiler(lib):
    kinds[(1,)](*kinds_args(), BLOCK=64)
    kinds[(1,)](*kinds_args(i=1), BLOCK=64)            # ==1
    kinds[(1,)](*kinds_args(i=32), BLOCK=64)           # divisible by 16
    kinds[(1,)](*kinds_args(big=2**40 + 1), BLOCK=64)  # i64, not :16
    kinds[(1,)](*kinds_args(flag=1), BLOCK=64)         # an int, not a bool
    kinds[(1,)](*kinds_args(f=2), BLOCK=64)            # an int, not a float
    kinds[(1,)](*kinds_args(ptr=4100), BLOCK=64)       # alignment
    kinds[(1,)](*kinds_args(), BLOCK=64, MODE="b")     # constexpr
    kinds[(1,)](*kinds_args(), BLOCK=64, num_warps=2)  # option
    kinds[(1,)](*kinds_args(big=2**63), BLOCK=64)      # u64
    sigs = [c["signature"].split(",") for c in lib.compiles]
    assert len(sigs) == 10
    assert sigs[1][1] == "i32:1" and sigs[2][1] == "i32:16"
    assert sigs[3][2] == "i64" and sigs[4][4] == "i32:1"
    assert sigs[5][3] == "i32" and sigs[6][0] == "*fp32"
    assert sigs[7][-1] == "'b'" and sigs[9][2] == "u64:16"
    assert lib.compiles[8]["options"]["num_warps"] == 2
    # Repeating every one of them compiles nothing more.
    before = len(lib.compiles)
    kinds[(1,)](*kinds_args(i=1), BLOCK=64)
    kinds[(1,)](*kinds_args(flag=1), BLOCK=64)
    kinds[(1,)](*kinds_args(), BLOCK=64, num_warps=2)
    kinds[(1,)](*kinds_args(big=2**63 + 16), BLOCK=64)
    assert len(lib.compiles) == before
    assert read_args(lib.launches[-1], ["<Q", "<i", "<Q"]) == \
        [4096, 7, 2**63 + 16]


def test_grid_forms_on_cache_hits(lib):
    x, y, o = FakeTensor(64), FakeTensor(128), FakeTensor(192)
    seen = []

    def grid(meta):
        seen.append(dict(meta))
        return [meta["n"] // meta["BLOCK"], 2]

    K.add[(1,)](x, y, o, 1000, BLOCK=8)  # compiles
    K.add[(5,)](x, y, o, 1000, BLOCK=8)
    K.add[(5, 6)](x, y, o, 1000, BLOCK=8)
    K.add[(5, 6, 7)](x, y, o, 1000, BLOCK=8)
    K.add[(5, 6, 7, 8)](x, y, o, 1000, BLOCK=8)  # extra dimensions ignored
    K.add[[9, 2]](x, y, o, 1000, BLOCK=8)
    K.add[grid](x, y, o, 1000, BLOCK=8)
    K.add[grid](x, y, o, 1000, 8, num_warps=2)  # positional BLOCK, option
    assert len(lib.compiles) == 2  # the option is part of the key
    assert [launch["grid"] for launch in lib.launches[1:]] == \
        [(5, 1, 1), (5, 6, 1), (5, 6, 7), (5, 6, 7), (9, 2, 1), (125, 2, 1),
         (125, 2, 1)]
    assert seen[0] == {"x": x, "y": y, "out": o, "n": 1000, "BLOCK": 8,
                       "num_warps": 4, "num_warpgroups": 1, "num_stages": 3,
                       "num_ctas": 1, "maxnreg": 0, "enable_fp_fusion": True,
                       "enable_reflect_ftz": True}
    assert seen[1]["num_warps"] == 2 and seen[1]["BLOCK"] == 8
    for launch in lib.launches:
        assert read_args(launch, ["<Q", "<Q", "<Q", "<i"]) == \
            [64, 128, 192, 1000]


def test_argument_errors_on_the_fast_path(lib):
    x = FakeTensor(64)
    K.add[(1,)](x, x, x, 4, BLOCK=4)  # warm the cache
    with pytest.raises(TypeError, match=r"add\[grid\].*missing.*'n'"):
        K.add[(1,)](x, x, x, BLOCK=4)
    with pytest.raises(TypeError, match="num_wraps"):
        K.add[(1,)](x, x, x, 4, BLOCK=4, num_wraps=4)
    with pytest.raises(TypeError, match="unsupported kernel argument"):
        K.add[(1,)](x, "y", x, 4, BLOCK=4)
    with pytest.raises(TypeError, match="not None"):
        K.add[None](x, x, x, 4, BLOCK=4)
    assert len(lib.launches) == 1


def test_parameters_named_like_generated_names(lib):
    a, b = FakeTensor(16), FakeTensor(32)
    for v in (5, 6):
        odd_names[(2,)](a, 3, b, 4, v, 7, 8, 9, 10, BLOCK=16)
        assert read_args(lib.launches[-1], ["<Q", "<i", "<Q"] + ["<i"] * 6) \
            == [16, 3, 32, 4, v, 7, 8, 9, 10]
        assert lib.launches[-1]["grid"] == (2, 1, 1)
    assert len(lib.compiles) == 1


def test_streams(lib, monkeypatch):
    monkeypatch.setattr(jit_module, "_stream", lambda: 0x5150)
    x = FakeTensor(64)
    K.add[(1,)](x, x, x, 4, BLOCK=4)
    K.add[(1,)](x, x, x, 4, BLOCK=4)
    K.add.run((1,), (x, x, x, 4), {"BLOCK": 4}, stream=0xBEEF)
    K.add.run((1,), (x, x, x, 4), {"BLOCK": 4})
    assert [launch["stream"] for launch in lib.launches] == \
        [0x5150, 0x5150, 0xBEEF, 0x5150]
    monkeypatch.setattr(jit_module, "_stream", lambda: None)  # no torch
    K.add[(1,)](x, x, x, 4, BLOCK=4)
    assert lib.launches[-1]["stream"] == 0


def test_do_not_specialize_on_the_fast_path(lib):
    x, o = FakeTensor(64), FakeTensor(128)
    for n in (1, 16, 17):
        K.scaled[(1,)](x, o, n, 1.0, False, None)
        assert read_args(lib.launches[-1], ["<Q", "<Q", "<i"]) == [64, 128, n]
    K.scaled[(1,)](x, o, 2**40, 1.0, False, None)
    assert [c["signature"].split(",")[2] for c in lib.compiles] == \
        ["i32", "i64"]
    assert read_args(lib.launches[-1], ["<Q", "<Q", "<q"]) == [64, 128, 2**40]


def test_cache_reset_and_launcher_call_swap(lib, monkeypatch):
    x = FakeTensor(64)
    K.add[(1,)](x, x, x, 4, BLOCK=4)
    K.add.cache = {}
    K.add[(1,)](x, x, x, 4, BLOCK=4)
    assert len(lib.compiles) == 2
    launcher = next(iter(K.add.cache.values()))
    calls = []
    launcher._call = lambda buffer: calls.append(1) or 0
    K.add[(1,)](x, x, x, 4, BLOCK=4)
    assert calls == [1] and len(lib.launches) == 2
    launcher._call = lambda buffer: 4  # a CUDA error status
    monkeypatch.setattr(_capi, "last_error", lambda: "boom")
    with pytest.raises(txl.TxlError, match="boom") as error:
        K.add[(1,)](x, x, x, 4, BLOCK=4)
    assert error.value.status == 4


def test_launcher_launch_takes_values_beyond_its_parameters(monkeypatch):
    monkeypatch.setattr(_capi, "fast_launch_function", lambda: None)
    monkeypatch.setattr(_capi, "kernel_free", lambda handle: None)
    metadata = {"params": [{"name": "a", "type": "i32", "size": 4},
                           {"name": "b", "type": "bf16", "size": 2}]}
    seen = []
    fixed = Launcher(1, metadata, [2, 0], 3)
    fixed._call = lambda buffer: seen.append(bytes(buffer)) or 0
    fixed.launch(1, 1, 1, None, (2.0, 99, 7))
    assert read_args({"args": fixed._args_address}, ["<i", "<H"]) == \
        [7, 0x4000]  # bf16 bits of 2.0
    with pytest.raises(TypeError):
        fixed.launch(1, 1, 1, None, (2.0, 99))  # one value short
    loose = Launcher(2, metadata, [0, 1])  # CompiledKernel's: launch order
    loose._call = lambda buffer: 0
    loose.launch(1, 1, 1, None, (5, 1.0, "ignored"))
    assert read_args({"args": loose._args_address}, ["<i", "<H"]) == \
        [5, 0x3F80]


def test_raw_stream_getter_uses_the_current_device():
    streams, current = {0: 100, 1: 200}, [1]

    def raw(index):  # like torch: -1 is the current device
        return streams[current[0] if index == -1 else index]

    def strict(index):  # a torch that rejects -1
        if index < 0:
            raise RuntimeError("bad device index")
        return streams[index]

    def first(index):  # a torch that would read -1 as device 0
        return streams[0 if index == -1 else index]

    for fn in (raw, strict, first):
        current[0] = 1
        getter = jit_module._raw_stream_getter(fn, lambda: current[0])
        assert getter() == 200
        current[0] = 0
        assert getter() == 100


def test_dropping_a_kernel_frees_its_launchers_at_once(lib, monkeypatch):
    freed = []
    monkeypatch.setattr(_capi, "kernel_free", freed.append)

    def local_kernel(x, n):
        pass

    kernel = txl.jit(local_kernel)
    kernel[(1,)](FakeTensor(64), 5)
    handle = next(iter(kernel.cache.values())).handle
    alive = weakref.ref(kernel)
    launch = kernel[(2,)]
    gc.disable()  # everything below is freed by reference counting alone
    try:
        del kernel
        assert alive() is None
        launch(FakeTensor(64), 6)  # the cached key still launches
        assert lib.launches[-1]["grid"] == (2, 1, 1)
        with pytest.raises(ReferenceError):
            launch(FakeTensor(64), 16)  # a new key needs the kernel object
        assert freed == []
        del launch  # the last holder of the cache
        assert freed == [handle]
    finally:
        gc.enable()
