"""IEEE division (`/` and tl.div_rn on fp32, fp16, bf16) bit for bit
against torch's (CUDA's div.rn), and tl.fdiv within its 2-ulp bound.

txl computes the IEEE quotient without a call (MathOpToLLVM.cpp,
emitIeeeDivF32: an fp64 Newton reciprocal and one correction), because a
call in a kernel serializes its wgmmas. Inputs: random bit patterns (every
exponent, subnormals included), quotients near 1 and near rounding
boundaries, and every pairing of +-0, +-inf, NaN, +-1, the smallest
subnormal and the largest finite value. Outputs are poisoned, and a tail
past n must stay poisoned (the mask)."""

import pytest
import torch

from conftest import real_compiler
from txl_kernels_div import divide

pytestmark = real_compiler

BLOCK = 256
TAIL = 37


def operands(dtype, n, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    bits = {torch.float32: torch.int32, torch.float16: torch.int16,
            torch.bfloat16: torch.int16}[dtype]
    info = torch.iinfo(bits)
    x = torch.randint(info.min, info.max, (n,), generator=gen, device="cuda",
                      dtype=bits).view(dtype)
    y = torch.randint(info.min, info.max, (n,), generator=gen, device="cuda",
                      dtype=bits).view(dtype)
    # A third of the pairs: y close to x times a small power of two, so
    # that quotients sit near 1 (and near halfway cases) in every binade.
    near = torch.rand(n, generator=gen, device="cuda") < 0.33
    scale = torch.pow(2.0, torch.randint(-3, 4, (n,), generator=gen,
                                         device="cuda").float())
    jitter = 1 + (torch.rand(n, generator=gen, device="cuda") - 0.5) * 2e-3
    y = torch.where(near, (x.float() * scale * jitter).to(dtype), y)
    finfo = torch.finfo(dtype)
    special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"),
                            float("nan"), 1.0, -1.0, finfo.tiny * finfo.eps,
                            finfo.max, -finfo.max], device="cuda",
                           dtype=torch.float32).to(dtype)
    sx, sy = torch.meshgrid(special, special, indexing="ij")
    return torch.cat([x, sx.flatten()]), torch.cat([y, sy.flatten()])


def same_bits(got, want):
    """Equal bit patterns, any NaN matching any NaN."""
    nan = torch.isnan(want)
    assert torch.equal(torch.isnan(got), nan)
    eq = got[~nan].view(torch.int16 if got.element_size() == 2
                        else torch.int32) == want[~nan].view(
        torch.int16 if got.element_size() == 2 else torch.int32)
    bad = (~eq).nonzero().flatten()
    assert bad.numel() == 0, (
        f"{bad.numel()} quotients differ, e.g. "
        f"{got[~nan][bad[:4]].tolist()} vs {want[~nan][bad[:4]].tolist()}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16,
                                   torch.bfloat16],
                         ids=["fp32", "fp16", "bf16"])
@pytest.mark.parametrize("seed", [0, 1])
def test_ieee_division(dtype, seed):
    x, y = operands(dtype, 1 << 18, seed)
    n = x.numel()
    q, rn, approx = (torch.full((n + TAIL,), -1234.5, device="cuda",
                                dtype=dtype) for _ in range(3))
    poison = q[n:].clone()  # -1234.5 as the dtype rounds it
    divide[(triton_cdiv(n, BLOCK),)](x, y, q, rn, approx, n, BLOCK=BLOCK)
    torch.cuda.synchronize()
    # fp16/bf16 divide in fp32 and round once more, as Triton and CUDA do.
    want = (x.float() / y.float()).to(dtype)
    same_bits(q[:n], want)
    same_bits(rn[:n], want)
    for out in (q, rn, approx):
        assert torch.equal(out[n:], poison)
    if dtype == torch.float32:
        # tl.fdiv (approximate: div.approx.f32) is within 2 ulp for
        # 2^-126 <= |y| <= 2^126 where the quotient is normal.
        finite = torch.isfinite(want) & (want.abs() > torch.finfo(
            dtype).tiny * 4) & (want.abs() < torch.finfo(dtype).max / 4) & (
            y.abs() <= 2.0 ** 126) & (y.abs() >= 2.0 ** -126)
        ulp = torch.finfo(dtype).eps * want.abs()
        assert torch.all((approx[:n] - want).abs()[finite] <= 2 * ulp[finite])


def triton_cdiv(a, b):
    return (a + b - 1) // b
