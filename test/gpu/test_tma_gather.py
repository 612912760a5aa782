"""txl.tma_gather on the GPU: rows of a global tensor picked by a register
tensor of offsets land in a swizzled shared tile (one TMA copy per row
and 128-byte chunk on sm_90), complete on an mbarrier by bytes. Random
row permutations with repeats and rows outside the tensor (zero-filled),
fp16/bf16/fp32, one- and two-chunk rows; a gathered A feeding wgmma."""

import pytest
import torch

import triton.language as tl
import txl
from conftest import real_compiler
from txl_kernels_gather import gather_dot, gather_rows

pytestmark = real_compiler

TL = {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16,
      torch.float32: tl.float32}


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


def offsets(n_rows, R, gen):
    """R row offsets: repeats, and some rows outside [0, n_rows)."""
    idx = torch.randint(0, n_rows, (R,), device="cuda", generator=gen)
    idx[1] = idx[0]                       # a repeat
    idx[2] = n_rows                       # just past the end
    idx[3] = -1                           # before the start
    idx[R - 1] = n_rows + 1000
    return idx.to(torch.int32)


def reference(x, idx, col, W):
    out = torch.zeros((idx.numel(), W), dtype=x.dtype, device=x.device)
    inside = (idx >= 0) & (idx < x.shape[0])
    cols = torch.arange(col, col + W, device=x.device)
    ok_cols = cols < x.shape[1]
    rows = x[idx[inside].long()][:, cols[ok_cols]]
    out[inside.nonzero().squeeze(1)[:, None],
        ok_cols.nonzero().squeeze(1)[None, :]] = rows
    return out


@pytest.mark.parametrize("R", [8, 64, 128])
@pytest.mark.parametrize("dtype,W", [
    (torch.float16, 64),    # 128-byte rows: one copy per row
    (torch.bfloat16, 64),
    (torch.float32, 32),
    (torch.float16, 128),   # 256-byte rows: two copies per row
    (torch.float32, 64),
], ids=lambda v: str(v).replace("torch.", ""))
def test_gather_rows(R, dtype, W):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    gen = torch.Generator(device="cuda").manual_seed(R * 31 + W)
    n_rows, n_cols = 300, 200
    x = torch.randn((n_rows, n_cols), device="cuda", generator=gen).to(dtype)
    idx = offsets(n_rows, R, gen)
    for col in (0, n_cols - W // 2):      # the second runs off the right edge
        out = torch.full((R, W), float("nan"), device="cuda", dtype=dtype)
        xd = txl.TensorDescriptor.from_tensor(x, [1, W])
        gather_rows[(1,)](xd, idx, out, col, R=R, W=W, DT=TL[dtype])
        torch.cuda.synchronize()
        torch.testing.assert_close(out, reference(x, idx, col, W),
                                   atol=0, rtol=0)


def test_gather_dot():
    if not hopper():
        pytest.skip("wgmma needs sm_90")
    gen = torch.Generator(device="cuda").manual_seed(7)
    a = torch.randn((500, 64), device="cuda", generator=gen).half()
    b = torch.randn((64, 64), device="cuda", generator=gen).half()
    idx = torch.randperm(500, device="cuda", generator=gen)[:64]
    idx[5] = idx[9]
    idx[10] = 600                         # zero row
    idx = idx.to(torch.int32)
    c = torch.full((64, 64), float("nan"), device="cuda")
    ad = txl.TensorDescriptor.from_tensor(a, [1, 64])
    gather_dot[(1,)](ad, idx, b, c, BM=64, BK=64, BN=64)
    torch.cuda.synchronize()
    rows = torch.zeros((64, 64), device="cuda", dtype=torch.float64)
    ok = idx < 500
    rows[ok] = a[idx[ok].long()].double()
    torch.testing.assert_close(c.double(), rows @ b.double(),
                               atol=1e-2, rtol=1e-3)
