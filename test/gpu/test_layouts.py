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


@pytest.mark.parametrize("M", [16, 64, 128])
@pytest.mark.parametrize("writers", [0, 1, 2], ids=["lane0", "even_warps",
                                                     "nobody"])
def test_slice_store_picks_writing_threads(M, writers):
    """frag_smem_store(pred=<per-thread scalar>, predStr="slice:1"): the
    row of a [M, 64] broadcast lands in a [M] buffer, written only by the
    threads whose predicate holds (rows of the other threads keep -5)."""
    x = random_tensor((M,), torch.float32)
    y = torch.full((M,), float("nan"), device="cuda")
    kernels.slice_owner_store[(1,)](x, y, M=M, N=64, WRITERS=writers,
                                    num_warps=4)
    torch.cuda.synchronize()
    r = torch.arange(M, device="cuda")
    keep = torch.full_like(x, -5.0)
    if writers == 0:
        want = x
    elif writers == 1:
        want = torch.where((r // 4) % 2 == 0, x, keep)
    else:
        want = keep
    assert torch.equal(y, want)
