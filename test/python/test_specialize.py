import random

import pytest

import txl.language as tl
from txl import _specialize as sp
from conftest import FakeTensor


@pytest.mark.parametrize("value,entry", [
    (1, "i32:1"), (0, "i32:16"), (16, "i32:16"), (-32, "i32:16"), (17, "i32"),
    (-1, "i32"), (2**31 - 1, "i32"), (-2**31, "i32:16"), (2**31, "i64:16"),
    (2**31 + 1, "i64"), (-2**31 - 1, "i64"), (2**63 - 1, "i64"),
    (2**63, "u64:16"), (2**64 - 1, "u64"),
])
def test_int_entries(value, entry):
    assert sp.arg(value) == (entry, value)


def test_int_entries_random_against_rule():
    rng = random.Random(5)
    for _ in range(2000):
        v = rng.randint(-2**63, 2**63 - 1) >> rng.randint(0, 63)
        entry, value = sp.arg(v)
        ty = "i32" if -2**31 <= v < 2**31 else "i64"
        want = ty + (":1" if v == 1 else ":16" if v % 16 == 0 else "")
        assert (entry, value) == (want, v)
        assert sp.arg_nospec(v) == (ty, v)


def test_int_too_large():
    with pytest.raises(ValueError, match="64 bits"):
        sp.arg(2**64)
    with pytest.raises(ValueError):
        sp.arg(-2**63 - 1)


def test_scalars_and_none():
    assert sp.arg(True) == ("i1", True)
    assert sp.arg(False) == ("i1", False)
    assert sp.arg(1.5) == ("fp32", 1.5)
    assert sp.arg(None) == ("none", None)


@pytest.mark.parametrize("dtype,sig", [
    ("torch.float16", "fp16"), ("torch.bfloat16", "bf16"),
    ("torch.float32", "fp32"), ("torch.float64", "fp64"),
    ("torch.int8", "i8"), ("torch.int16", "i16"), ("torch.int32", "i32"),
    ("torch.int64", "i64"), ("torch.uint8", "u8"), ("torch.bool", "i1"),
    ("torch.float8_e4m3fn", "fp8e4nv"), ("torch.float8_e5m2", "fp8e5"),
])
def test_tensor_entries(dtype, sig):
    assert sp.arg(FakeTensor(4096, dtype)) == (f"*{sig}:16", 4096)
    assert sp.arg(FakeTensor(4098, dtype)) == (f"*{sig}", 4098)
    # Second sight goes through the cached pair and must agree.
    assert sp.arg(FakeTensor(8192 + 8, dtype)) == (f"*{sig}", 8200)


def test_bad_arguments():
    with pytest.raises(TypeError, match="unsupported tensor dtype"):
        sp.arg(FakeTensor(0, "torch.complex64"))
    with pytest.raises(TypeError, match="unsupported kernel argument"):
        sp.arg("text")
    with pytest.raises(TypeError):
        sp.arg([1, 2])


def test_integral_and_real_subclasses():
    class MyInt(int):
        pass

    assert sp.arg(MyInt(32)) == ("i32:16", 32)
    import fractions
    assert sp.arg(fractions.Fraction(1, 2)) == ("fp32", 0.5)


def test_constexpr_text():
    assert sp.constexpr_text(128) == "128"
    assert sp.constexpr_text(-3) == "-3"
    assert sp.constexpr_text(True) == "True"
    assert sp.constexpr_text(None) == "None"
    assert sp.constexpr_text(0.1) == "0.1"
    assert sp.constexpr_text("relu") == "'relu'"
    assert sp.constexpr_text(tl.float16) == "tl.float16"
    assert sp.constexpr_text(tl.constexpr(64)) == "64"
    assert sp.constexpr_text((1, 2)) == "(1, 2)"
    assert sp.constexpr_text([4]) == "(4,)"
    # A tl function (Triton's test_globaltimer passes one as a constexpr).
    assert (sp.constexpr_text(tl.extra.cuda.globaltimer) ==
            "tl.extra.cuda.globaltimer")

    def globaltimer():  # shaped like Triton's own function
        pass
    globaltimer.__module__ = "triton.language.extra.cuda.utils"
    assert sp.constexpr_text(globaltimer) == "tl.extra.cuda.globaltimer"
    globaltimer.__module__ = "host_code"
    with pytest.raises(TypeError):
        sp.constexpr_text(globaltimer)

    class TorchLikeDtype:
        def __str__(self):
            return "torch.bfloat16"

    assert sp.constexpr_text(TorchLikeDtype()) == "tl.bfloat16"
    with pytest.raises(TypeError):
        sp.constexpr_text(object())


class constexpr:  # noqa: N801 -- shaped like triton.language.constexpr
    def __init__(self, value):
        self.value = value


def test_triton_constexpr_wrappers():
    assert sp.global_text(constexpr(32)) == "32"
    assert sp.constexpr_text(constexpr(True)) == "True"


def test_global_text():
    assert sp.global_text(3) == "3"
    assert sp.global_text(False) == "False"
    assert sp.global_text(tl.bfloat16) == "tl.bfloat16"
    assert sp.global_text(tl.constexpr(8)) == "8"
    assert sp.global_text(object()) is None
    assert sp.global_text(tl) is None  # modules are never values
    assert sp.global_text(print) is None
