"""The attention ladder (tutorials/attention) on the GPU: every step
against a float32 PyTorch reference, causal and not, head dims 64 and 128,
seqlens from 1 to 4133 (ragged tails that are not a multiple of any block),
fp16 and bf16 (steps 1-5) and fp8 e4m3 with per-tensor descales (step 6).
The output sits inside a larger NaN-filled buffer, so an element the
kernel never writes, or a store past the end, shows.

fp8 tolerance: P is rounded to e4m3 (3 mantissa bits) before P V, which
moves each output by up to ~3% of the values it averages (a CPU emulation
of that rounding at seqlen 200: max error 0.029, mean 0.003 on N(0,1)
values), plus the bf16 output's rounding: atol 0.06, rtol 0.02, and the
mean absolute error must stay below 0.008 (a lost descale or a wrong mask
moves it by an order of magnitude)."""

import math
import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "tutorials", "attention"))
pytest.importorskip("triton")  # the tutorials import triton.language

import step01_online_softmax  # noqa: E402
import step02_tma_mbarriers  # noqa: E402
import step03_warp_specialized  # noqa: E402
import step04_pingpong  # noqa: E402
import step05_overlap  # noqa: E402
import step06_fp8  # noqa: E402

STEPS = {1: step01_online_softmax, 2: step02_tma_mbarriers,
         3: step03_warp_specialized, 4: step04_pingpong, 5: step05_overlap}
SEQLENS = [1, 17, 128, 1000, 4133]


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the attention ladder needs sm_90a")


def reference(q, k, v, scale, causal):
    """softmax(q k^T * scale) v in float32, per (batch, head)."""
    qf, kf, vf = (t.float().transpose(1, 2) for t in (q, k, v))
    s = qf @ kf.transpose(-1, -2) * scale
    if causal:
        S = q.shape[1]
        above = torch.ones((S, S), device=q.device, dtype=torch.bool).triu(1)
        s = s.masked_fill(above, float("-inf"))
    return (torch.softmax(s, dim=-1) @ vf).transpose(1, 2)


def poisoned_out(shape, dtype):
    """A NaN-filled output view with NaN slack behind it."""
    n = math.prod(shape)
    big = torch.full((n + 4096,), float("nan"), device="cuda", dtype=dtype)
    return big, big[:n].view(shape)


def inputs(B, S, H, D, dtype, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed * 1009 + S * 7 + D)
    return [torch.randn((B, S, H, D), device="cuda", generator=gen).to(dtype)
            for _ in range(3)]


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", SEQLENS)
@pytest.mark.parametrize("step", sorted(STEPS))
def test_step_fp16(step, S, D, causal):
    B, H = 2, 3
    q, k, v = inputs(B, S, H, D, torch.float16, step)
    big, out = poisoned_out(q.shape, torch.float16)
    STEPS[step].attention(q, k, v, causal=causal, out=out)
    torch.cuda.synchronize()
    want = reference(q, k, v, D ** -0.5, causal)
    torch.testing.assert_close(out.float(), want, atol=1e-2, rtol=1e-2)
    assert torch.isnan(big[out.numel():]).all(), "a store past the output"


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("step", sorted(STEPS))
def test_step_bf16(step, causal):
    B, S, H, D = 1, 777, 4, 128
    q, k, v = inputs(B, S, H, D, torch.bfloat16, step)
    big, out = poisoned_out(q.shape, torch.bfloat16)
    STEPS[step].attention(q, k, v, causal=causal, sm_scale=0.07, out=out)
    torch.cuda.synchronize()
    want = reference(q, k, v, 0.07, causal)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
    assert torch.isnan(big[out.numel():]).all(), "a store past the output"


def check_fp8(out, want):
    err = (out.float() - want).abs()
    torch.testing.assert_close(out.float(), want, atol=6e-2, rtol=2e-2)
    assert err.mean().item() < 8e-3, f"mean error {err.mean().item()}"


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", SEQLENS)
def test_step06_fp8(S, D, causal):
    B, H = 2, 3
    q, k, v = inputs(B, S, H, D, torch.float8_e4m3fn, 6)
    dq, dk, dv = 0.7, 1.3, 0.9
    big, out = poisoned_out(q.shape, torch.bfloat16)
    step06_fp8.attention(q, k, v, causal=causal, descale_q=dq, descale_k=dk,
                         descale_v=dv, out=out)
    torch.cuda.synchronize()
    want = reference(q.float() * dq, k.float() * dk, v.float() * dv,
                     D ** -0.5, causal)
    check_fp8(out, want)
    assert torch.isnan(big[out.numel():]).all(), "a store past the output"
