"""A shared buffer (and its mbarrier) chosen at run time, as the TXL
project's kernels choose per warpgroup: assigned in both branches of an if
(per program), and `a if wg == 0 else b` (per warpgroup). Each checks that
the data went through the buffer the condition names."""

import pytest
import torch

import txl
from conftest import real_compiler
from harness import random_tensor
import txl_kernels_buffer_choice as kernels

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


@pytest.mark.parametrize("M", [64, 256, 200])
def test_choose_by_program(M):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    BM, BN = 64, 64
    x = random_tensor((M, BN), torch.float16)
    y = torch.full((M, BN), float("nan"), device="cuda", dtype=torch.float16)
    xd = txl.TensorDescriptor.from_tensor(x, [BM, BN])
    grid = ((M + BM - 1) // BM,)
    kernels.choose_by_program[grid](xd, y, M, BM=BM, BN=BN, num_warps=4)
    torch.cuda.synchronize()
    torch.testing.assert_close(y, x, rtol=0, atol=0)


def test_choose_by_warpgroup():
    if not hopper():
        pytest.skip("warpgroup roles need sm_90")
    BM, BN = 64, 64
    x = random_tensor((2 * BM, BN), torch.float32)
    y = torch.full_like(x, float("nan"))
    kernels.choose_by_warpgroup[(1,)](x, y, BM=BM, BN=BN, num_warps=4,
                                      num_warpgroups=2)
    torch.cuda.synchronize()
    want = x.clone()
    want[BM:] *= 2
    torch.testing.assert_close(y, want, rtol=0, atol=0)
