"""fp8 e4m3 / e5m2 casts against torch's float8 casts, both ways.

Down-casts round to nearest even and saturate to the largest finite value
(cvt.rn.satfinite, as Triton does): the reference is torch's cast of the
input clamped to the format's range (torch turns overflow into NaN or inf).
fp64 goes through fp32 first (one more rounding; the reference does the
same). Inputs span the formats' subnormals to far past their range, with
+-inf, NaN and +-0; up-casts take all 256 bit patterns. Outputs are
poisoned, and a tail past n must stay poisoned (the mask)."""

import pytest
import torch
import triton.language as tl

from conftest import real_compiler
from txl_kernels_fp8 import cast_roundtrip, fp8_arith, scalar_store, store_converts

pytestmark = real_compiler

FP8 = {"e4m3": (torch.float8_e4m3fn, tl.float8e4nv, 448.0),
       "e5m2": (torch.float8_e5m2, tl.float8e5, 57344.0)}
WIDE = {"fp32": (torch.float32, tl.float32), "fp16": (torch.float16, tl.float16),
        "bf16": (torch.bfloat16, tl.bfloat16), "fp64": (torch.float64, tl.float64)}
BLOCK = 256
TAIL = 37  # elements past n that the kernel must not write


def needs_fp8_cvt():
    if torch.cuda.get_device_capability() < (8, 9):
        pytest.skip("fp8 conversions need sm_89 or later")


def wide_inputs(n, dtype, seed):
    """Magnitudes from 2^-20 to 2^20, both signs, and the special values."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    mant = torch.rand(n, device="cuda", generator=gen, dtype=torch.float64) + 1
    expo = torch.randint(-20, 21, (n,), device="cuda", generator=gen)
    sign = torch.randint(0, 2, (n,), device="cuda", generator=gen) * 2 - 1
    x = sign * mant * torch.pow(2.0, expo.double())
    specials = torch.tensor([0.0, -0.0, float("inf"), float("-inf"),
                             float("nan"), 448.0, 464.0, 480.0, -500.0,
                             57344.0, 61440.0, 1e6, 2.0**-9, 2.0**-10,
                             2.0**-16, 2.0**-17, 1.0 + 2.0**-4, 1.0 + 3 * 2.0**-4],
                            device="cuda", dtype=torch.float64)
    x[:len(specials)] = specials[:n]
    return x.to(dtype)


def poisoned(n, dtype):
    """n + TAIL elements of NaN (every float type here has one)."""
    return torch.full((n + TAIL,), float("nan"), device="cuda").to(dtype)


def assert_same(got, want):
    """Equal values (bit for bit except for NaN payloads); NaN where NaN."""
    g, w = got.double(), want.double()
    assert torch.equal(torch.isnan(g), torch.isnan(w)), \
        f"NaN mismatch at {torch.nonzero(torch.isnan(g) != torch.isnan(w))[:8].tolist()}"
    ok = ~torch.isnan(w)
    bad = ok & ((g != w) | (torch.signbit(g) != torch.signbit(w)))
    assert not bad.any(), (f"{int(bad.sum())} differ, e.g. got {g[bad][:8].tolist()} "
                           f"want {w[bad][:8].tolist()}")


def reference_down(x, fp8, limit):
    wide = x.float() if x.dtype == torch.float64 else x
    return wide.clamp(-limit, limit).to(fp8)


@pytest.mark.parametrize("n", [1, 255, 4097])
@pytest.mark.parametrize("fmt", FP8)
@pytest.mark.parametrize("src", WIDE)
def test_down_and_back(src, fmt, n):
    needs_fp8_cvt()
    sdt, stl = WIDE[src]
    fdt, ftl, limit = FP8[fmt]
    x = wide_inputs(n, sdt, seed=n * 13 + len(src) + len(fmt))
    y, z = poisoned(n, fdt), poisoned(n, sdt)
    cast_roundtrip[(triton_cdiv(n, BLOCK),)](x, y, z, n, SRC=stl, DST=ftl,
                                             BLOCK=BLOCK)
    torch.cuda.synchronize()
    want = reference_down(x, fdt, limit)
    assert_same(y[:n], want)
    assert_same(z[:n], want.to(sdt))
    assert torch.isnan(y[n:].double()).all() and torch.isnan(z[n:].double()).all()


def all_bit_patterns(fdt, repeat=3):
    bits = torch.arange(256, device="cuda", dtype=torch.int32).to(torch.uint8)
    return bits.repeat(repeat)[:-5].view(fdt)  # ragged: 763 elements


@pytest.mark.parametrize("fmt", FP8)
@pytest.mark.parametrize("dst", WIDE)
def test_up(fmt, dst):
    needs_fp8_cvt()
    ddt, dtl = WIDE[dst]
    fdt, ftl, _ = FP8[fmt]
    x = all_bit_patterns(fdt)
    n = x.numel()
    y, z = poisoned(n, ddt), poisoned(n, fdt)
    cast_roundtrip[(triton_cdiv(n, BLOCK),)](x, y, z, n, SRC=ftl, DST=dtl,
                                             BLOCK=BLOCK)
    torch.cuda.synchronize()
    assert_same(y[:n], x.to(ddt))
    assert_same(z[:n], x)  # every fp8 value is exact in the wider types
    assert torch.isnan(y[n:].double()).all()


@pytest.mark.parametrize("pair", [("e4m3", "e5m2"), ("e5m2", "e4m3")])
def test_fp8_to_fp8(pair):
    needs_fp8_cvt()
    (sdt, stl, _), (ddt, dtl, limit) = FP8[pair[0]], FP8[pair[1]]
    x = all_bit_patterns(sdt)
    n = x.numel()
    y, z = poisoned(n, ddt), poisoned(n, sdt)
    cast_roundtrip[(triton_cdiv(n, BLOCK),)](x, y, z, n, SRC=stl, DST=dtl,
                                             BLOCK=BLOCK)
    torch.cuda.synchronize()
    want = x.float().clamp(-limit, limit).to(ddt)
    assert_same(y[:n], want)
    assert_same(z[:n], reference_down(want.float(), sdt, FP8[pair[0]][2]))


@pytest.mark.parametrize("fmt", FP8)
def test_store_converts(fmt):
    needs_fp8_cvt()
    fdt, _, limit = FP8[fmt]
    n = 3001
    x = wide_inputs(n, torch.float32, seed=7)
    y = poisoned(n, fdt)
    store_converts[(triton_cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    torch.cuda.synchronize()
    assert_same(y[:n], reference_down(x, fdt, limit))
    assert torch.isnan(y[n:].double()).all()


@pytest.mark.parametrize("fmt", FP8)
def test_arith(fmt):
    needs_fp8_cvt()
    fdt, _, limit = FP8[fmt]
    n = 2000
    x = reference_down(wide_inputs(n, torch.float32, seed=11), fdt, limit)
    y = reference_down(wide_inputs(n, torch.float32, seed=12), fdt, limit)
    prod, mx = poisoned(n, fdt), poisoned(n, fdt)
    gt = torch.full((n + TAIL,), -7, device="cuda", dtype=torch.int8)
    fp8_arith[(triton_cdiv(n, BLOCK),)](x, y, prod, mx, gt, n, BLOCK=BLOCK)
    torch.cuda.synchronize()
    xf, yf = x.float(), y.float()
    assert_same(prod[:n], reference_down(xf * yf, fdt, limit))
    assert_same(mx[:n], torch.maximum(xf, yf).to(fdt))
    assert torch.equal(gt[:n], (xf > yf).to(torch.int8))
    assert (gt[n:] == -7).all()


@pytest.mark.parametrize("fmt", FP8)
@pytest.mark.parametrize("v", [0.3, -1000.0, 1e-6, float("nan")])
def test_scalar_store(fmt, v):
    needs_fp8_cvt()
    fdt, _, limit = FP8[fmt]
    p = poisoned(1, fdt)
    scalar_store[(1,)](p, v)
    torch.cuda.synchronize()
    want = torch.tensor([v], device="cuda").clamp(-limit, limit).to(fdt)
    assert_same(p[:1], want)


def triton_cdiv(a, b):
    return (a + b - 1) // b
