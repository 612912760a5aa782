"""txl layout classes on the GPU: values are unchanged by txl.relayout
through explicit blocked and slice layouts (real data movement between
threads: the layouts put rows and columns on different lanes). Random
input, exact comparison (the kernel computes 2x + 1 in fp32)."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "test", "gpu"))
pytest.importorskip("triton")  # the kernels import triton.language

import txl_kernels_layout as kernels  # noqa: E402


@pytest.mark.parametrize("shape", [(32, 64), (64, 32), (128, 128)],
                         ids=lambda s: "x".join(map(str, s)))
def test_relayout_keeps_values(shape):
    M, N = shape
    x = random_tensor((M, N), torch.float32)
    y = torch.full((M * N,), float("nan"), device="cuda")
    kernels.relayout_roundtrip[(1,)](x, y, M=M, N=N, num_warps=4)
    torch.cuda.synchronize()
    assert torch.equal(y, (x * 2.0 + 1.0).flatten())


@pytest.mark.parametrize("shape", [(32, 64), (128, 64)],
                         ids=lambda s: "x".join(map(str, s)))
def test_fragment_io(shape):
    M, N = shape
    x = random_tensor((M, N), torch.float32)
    y = torch.full((M, N), float("nan"), device="cuda")
    kernels.fragment_io[(1,)](x, y, 0.25, M=M, N=N, num_warps=4)
    torch.cuda.synchronize()
    stored = torch.where(x >= 0.25, x, torch.zeros_like(x))
    odd = (torch.arange(N, device="cuda") % 2 == 1)[None, :]
    want = torch.where(odd, torch.full_like(x, -1.0), stored)
    assert torch.equal(y, want)
