"""txl.smem_reshape on the GPU: views of swizzled (TMA / wgmma) tiles with
another shape. Two TMA-loaded stages read and TMA-stored as one tile; a
tile read half by half through [2, BM/2, BK] + smem_index; a tile written
through [BM/2, 2, BK] and read by tl.dot."""

import pytest
import torch

import txl
from conftest import real_compiler
from txl_kernels_gather import reshape_dot, reshape_stages

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


def test_reshape_stages():
    if not hopper():
        pytest.skip("TMA needs sm_90")
    gen = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randn((128, 64), device="cuda", generator=gen).half()
    y = torch.full((128, 64), float("nan"), device="cuda").half()
    out = torch.full((128, 64), float("nan"), device="cuda").half()
    xd = txl.TensorDescriptor.from_tensor(x, [64, 64])
    yd = txl.TensorDescriptor.from_tensor(y, [128, 64])
    reshape_stages[(1,)](xd, yd, out, S=2, M=64, K=64)
    torch.cuda.synchronize()
    torch.testing.assert_close(out, (x.double() + 1).half(), atol=0, rtol=0)
    torch.testing.assert_close(y, x, atol=0, rtol=0)


def test_reshape_dot():
    if not hopper():
        pytest.skip("wgmma needs sm_90")
    gen = torch.Generator(device="cuda").manual_seed(2)
    a = torch.randn((64, 64), device="cuda", generator=gen).half()
    b = torch.randn((64, 64), device="cuda", generator=gen).half()
    c = torch.full((64, 64), float("nan"), device="cuda")
    d = torch.full((64, 64), float("nan"), device="cuda").half()
    ad = txl.TensorDescriptor.from_tensor(a, [64, 64])
    reshape_dot[(1,)](ad, a, b, c, d, BM=64, BK=64, BN=64)
    torch.cuda.synchronize()
    torch.testing.assert_close(d, a, atol=0, rtol=0)
    torch.testing.assert_close(c.double(), a.double() @ b.double(),
                               atol=1e-2, rtol=1e-3)
