"""Launcher packing: every parameter type lands at its kernelParams slot."""

import ctypes
import struct

import pytest

from txl import _capi
from txl._launcher import Launcher, match_params


@pytest.fixture
def no_library(monkeypatch):
    monkeypatch.setattr(_capi, "fast_launch_function", lambda: None)
    monkeypatch.setattr(_capi, "kernel_free", lambda handle: None)


def slot(launcher, i, fmt):
    args = struct.unpack_from("<Q", launcher._buffer, 32)[0]
    ptr = ctypes.c_uint64.from_address(args + 8 * i).value
    return struct.unpack(fmt, ctypes.string_at(ptr, struct.calcsize(fmt)))[0]


def test_every_scalar_type_and_a_permutation(no_library):
    params = [("ptr", 8, "<Q", 0x7F0012345670), ("i1", 1, "<?", True),
              ("i64", 8, "<q", -2**40), ("fp32", 4, "<f", 1.5),
              ("i8", 1, "<b", -7), ("fp64", 8, "<d", 2.25),
              ("u64", 8, "<Q", 2**64 - 1), ("i32", 4, "<i", -5),
              ("fp16", 2, "<e", 0.5), ("u16", 2, "<H", 65535),
              ("bf16", 2, "<H", 1.0)]
    metadata = {"params": [{"name": f"a{i}", "type": t, "size": s}
                           for i, (t, s, _, _) in enumerate(params)]}
    values = tuple(v for *_, v in params)[::-1]  # runtime order reversed
    picks = list(range(len(params)))[::-1]
    launcher = Launcher(77, metadata, picks, len(params))
    seen = []
    launcher._call = lambda buffer: seen.append(bytes(buffer[:40])) or 0
    launcher.launch(3, 2, 1, 0xABC, values)
    kernel, stream, gx, gy, gz, nargs, _ = struct.unpack("<QQIIIiQ", seen[0])
    assert (kernel, stream, gx, gy, gz, nargs) == (77, 0xABC, 3, 2, 1, 11)
    for i, (ty, size, fmt, value) in enumerate(params):
        got = slot(launcher, i, fmt)
        if ty == "bf16":
            assert got == 0x3F80  # bf16 bits of 1.0
        else:
            assert got == value, ty
    # Slots are aligned to their size (the driver copies from them).
    args = struct.unpack_from("<Q", launcher._buffer, 32)[0]
    for i, (_, size, _, _) in enumerate(params):
        ptr = ctypes.c_uint64.from_address(args + 8 * i).value
        assert ptr % min(size, 8) == 0


def test_tensor_map_blob_parameter(no_library):
    metadata = {"params": [{"name": "desc", "type": "tensormap",
                            "size": 128}, {"name": "n", "type": "i32",
                                           "size": 4}]}
    launcher = Launcher(1, metadata, [0, 1], 2)
    launcher._call = lambda buffer: 0
    blob = bytes(range(128))
    launcher.launch(1, 1, 1, None, (blob, 9))
    assert slot(launcher, 0, "128s") == blob
    assert slot(launcher, 1, "<i") == 9


def test_unknown_parameter_type_is_an_error(no_library):
    with pytest.raises(_capi.TxlError, match="cannot pass"):
        Launcher(1, {"params": [{"name": "q", "type": "f128", "size": 16}]},
                 [0])


def test_match_params():
    meta = {"params": [{"name": "b"}, {"name": "a"}]}
    assert match_params(meta, ["a", "b"], ["*fp32", "*fp32"]) == [1, 0]
    meta = {"params": [{"name": "p0"}, {"name": "p2"}]}
    assert match_params(meta, ["a", "b", "c"], ["*fp32", "none", "i32"]) == \
        [0, 2]
    assert match_params(meta, ["a", "b", "c"], ["*fp32", "i32:1", "i32"]) == \
        [0, 2]
    with pytest.raises(_capi.TxlError, match="takes 2 parameters"):
        match_params(meta, ["a"], ["*fp32"])
