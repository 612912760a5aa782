"""Scalar tl.store and atomics inside txl.is_warpgroup / is_warp roles
(test/gpu/txl_kernels_role_scalars.py): each is performed exactly once, by
a thread that runs the role. (Before, thread 0 performed every scalar store
and atomic, so in a role without thread 0 they silently never happened.)"""

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

import txl_kernels_role_scalars as k  # noqa: E402


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("warpgroup roles need sm_90")


def test_warpgroup_roles():
    out = torch.full((4,), -1, device="cuda", dtype=torch.int32)
    counter = torch.zeros(2, device="cuda", dtype=torch.int32)
    for _ in range(3):
        out.fill_(-1)
        counter.zero_()
        k.role_scalars[(2,)](out, counter, num_warps=4, num_warpgroups=3)
        torch.cuda.synchronize()
        # Two CTAs: each role's store happens (once per CTA, same value).
        assert out[0].item() == 10 and out[1].item() == 11
        assert counter[0].item() == 2 * (1 + 5)
        assert counter[1].item() == 7
        assert 100 <= out[2].item() <= 100 + 11
        assert out[3].item() in (0, 7)


def test_warp_role():
    out = torch.full((1,), -1, device="cuda", dtype=torch.int32)
    counter = torch.zeros(1, device="cuda", dtype=torch.int32)
    k.warp_role_scalars[(1,)](out, counter, num_warps=4)
    torch.cuda.synchronize()
    assert out.item() == 12
    assert counter.item() == 3 + 1
