"""The txl surface the TXL project's kernels use (issue 13 point 4), on the
GPU: a TMA store of a buffer covering part of the descriptor's block, and
register reallocation under txl.warpgroup_id() conditions."""

import pytest
import torch

import triton.language as tl
import txl
from conftest import real_compiler
from txl_kernels_compat import role_by_warpgroup_id, store_halves

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


# A 512-wide block: more than a TMA box (256), copied as several boxes; the
# host descriptor takes it (the box the compiler chose is what is encoded).
@pytest.mark.parametrize("M", [256, 200])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_tma_store_of_block_halves(M, dtype):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    BM, BN = 64, 512
    gen = torch.Generator(device="cuda").manual_seed(M)
    x = torch.randn((M, BN), device="cuda", generator=gen).to(dtype)
    # The output inside a poisoned tensor: a box stored at a wrong column
    # or beyond the last row would show there.
    big = torch.full((M + 8, BN + 64), float("nan"), device="cuda",
                     dtype=dtype)
    y = big[4:4 + M, 32:32 + BN]
    yd = txl.TensorDescriptor(y, list(y.shape), list(y.stride()), [BM, BN])
    dt = tl.float16 if dtype == torch.float16 else tl.bfloat16
    store_halves[((M + BM - 1) // BM,)](x, yd, M, BM=BM, BN=BN, DT=dt)
    torch.cuda.synchronize()
    want = (x.float() * 2 + 1).to(dtype)
    torch.testing.assert_close(y, want, atol=0, rtol=0)
    outside = big.clone()
    outside[4:4 + M, 32:32 + BN] = 0
    assert torch.isnan(outside).sum() == outside.numel() - M * BN


def test_setmaxnreg_under_warpgroup_id():
    if not hopper():
        pytest.skip("setmaxnreg needs sm_90")
    BLOCK = 128
    y = torch.full((2 * BLOCK,), float("nan"), device="cuda")
    role_by_warpgroup_id[(1,)](y, BLOCK=BLOCK, num_warpgroups=2)
    torch.cuda.synchronize()
    assert torch.equal(y[:BLOCK], torch.ones(BLOCK, device="cuda"))
    assert torch.equal(y[BLOCK:], torch.full((BLOCK,), 2.0, device="cuda"))
