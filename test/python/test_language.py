import inspect

import pytest

import txl
import txl.language as tl
from txl.jit import is_constexpr_annotation


def test_dtypes_and_constexpr():
    assert tl.float16.sig == "fp16" and repr(tl.bfloat16) == "tl.bfloat16"
    assert tl.float8e4nv.primitive_bitwidth == 8
    assert tl.int32 == tl.int32 and tl.int32 != tl.uint32
    assert tl.float32.is_floating() and tl.int8.is_int()
    c = tl.constexpr(128)
    assert c.value == 128 and c == 128 and tl.constexpr(c).value == 128
    assert hash(c) == hash(128)
    assert txl.constexpr is tl.constexpr


def test_device_functions_are_stubs_that_refuse_to_run():
    for fn in (tl.program_id, tl.load, tl.math.exp, txl.smem_alloc,
               txl.mbar_wait, txl.tma_load):
        required = [p for p in inspect.signature(fn).parameters.values()
                    if p.default is p.empty and p.kind == p.POSITIONAL_OR_KEYWORD]
        with pytest.raises(RuntimeError, match="inside a @txl.jit kernel"):
            fn(*[0] * len(required))
    with pytest.raises(AttributeError):
        tl.__wrapped__  # dunder/private names are not stubs
    with pytest.raises(AttributeError):
        tl._private


def test_constexpr_annotations_from_any_source():
    class constexpr:  # noqa: N801 -- what triton.language.constexpr looks like
        pass

    assert is_constexpr_annotation(tl.constexpr)
    assert is_constexpr_annotation(constexpr)
    assert is_constexpr_annotation("tl.constexpr")
    assert is_constexpr_annotation("constexpr")
    assert not is_constexpr_annotation(int)
    assert not is_constexpr_annotation("tl.tensor")


def test_layout_source_text():
    layout = txl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    assert layout._txl_source() == \
        "txl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])"
    nested = txl.SliceLayout(dim=1, parent=layout)
    assert nested._txl_source().startswith("txl.SliceLayout(dim=1, parent=txl.")


def test_import_does_not_need_torch_or_library():
    import os
    import subprocess
    import sys
    code = ("import sys, txl, txl.language as tl\n"
            "assert 'torch' not in sys.modules\n"
            "assert txl._capi._lib is None\n")
    env = dict(os.environ, TXL_LIBRARY="/nonexistent/libtxl.so")
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(txl.__file__))
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
