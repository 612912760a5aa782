"""Thread-block clusters on the GPU (launch option num_ctas): a program is a
cluster, TMA multicast fills every CTA of it, and remote mbarrier arrivals
cross CTAs. The GEMM that uses all three is ladder step 9
(test_gemm_ladder.py)."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "test", "gpu"))
pytest.importorskip("triton")  # the kernels import triton.language

import txl  # noqa: E402
import txl_kernels_cluster as kernels  # noqa: E402


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


@pytest.mark.parametrize("ctas", [2, 4, 8])
@pytest.mark.parametrize("programs", [1, 3, 66])
def test_cluster_ids(ctas, programs):
    if not hopper():
        pytest.skip("clusters need sm_90")
    out = torch.full((programs * ctas, 4), -1, device="cuda",
                     dtype=torch.int32)
    kernels.cluster_ids[(programs,)](out, num_warps=4, num_ctas=ctas)
    torch.cuda.synchronize()
    cta = torch.arange(programs * ctas, device="cuda", dtype=torch.int32)
    expected = torch.stack([cta // ctas, torch.full_like(cta, programs),
                            cta % ctas, cta], dim=1)
    assert torch.equal(out, expected)


@pytest.mark.parametrize("ctas", [2, 4])
@pytest.mark.parametrize("block", [(64, 64), (128, 32)],
                         ids=lambda b: "x".join(map(str, b)))
@pytest.mark.parametrize("programs", [1, 5])
def test_cluster_multicast(ctas, block, programs):
    if not hopper():
        pytest.skip("TMA multicast needs sm_90")
    bm, bn = block
    src = random_tensor((programs * ctas * bm, bn), torch.float16)
    out = torch.full((programs * ctas, ctas, bm, bn), float("nan"),
                     device="cuda", dtype=torch.float16)
    desc = txl.TensorDescriptor.from_tensor(src, [bm, bn])
    kernels.cluster_gather[(programs,)](desc, out, NUM_CTAS=ctas, BLOCK_M=bm,
                                        BLOCK_N=bn, num_warps=4,
                                        num_ctas=ctas)
    torch.cuda.synchronize()
    tiles = src.view(programs, ctas, bm, bn)
    # Every CTA of cluster c holds all of cluster c's tiles, stage j = the
    # tile CTA j loaded.
    expected = tiles[:, None].expand(programs, ctas, ctas, bm, bn)
    assert torch.equal(out.view(programs, ctas, ctas, bm, bn), expected)


@pytest.mark.parametrize("rounds", [2, 9, 64])
@pytest.mark.parametrize("programs", [1, 40])
def test_cluster_remote_arrive(rounds, programs):
    if not hopper():
        pytest.skip("remote mbarrier arrivals need sm_90")
    out = torch.zeros((programs * 2, rounds), device="cuda",
                      dtype=torch.int32)
    kernels.cluster_remote_arrive[(programs,)](out, ROUNDS=rounds,
                                               num_warps=4, num_ctas=2)
    torch.cuda.synchronize()
    expected = torch.zeros_like(out)
    steps = torch.arange(1, rounds + 1, device="cuda", dtype=torch.int32)
    # CTA r waits (and records) in the rounds i with i % 2 != r.
    expected[0::2, 1::2] = steps[1::2]
    expected[1::2, 0::2] = steps[0::2]
    assert torch.equal(out, expected)
