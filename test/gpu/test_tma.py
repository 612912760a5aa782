"""TMA on the GPU: host txl.TensorDescriptor -> CUtensorMap at launch,
txl.tma_load into a swizzled shared tile (completion on an mbarrier by byte
count), smem_load/smem_store through the same swizzle, txl.tma_store back.
Blocks wider than the swizzle span travel as several boxes; ragged edges
read as zero and are clipped on store."""

import pytest
import torch

import triton.language as tl
import txl
from conftest import real_compiler
from txl_kernels_tma import tma_scale

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


TL = {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16,
      torch.float32: tl.float32}


@pytest.mark.parametrize("shape", [(64, 128), (256, 512), (200, 136),
                                   (17, 40), (1000, 264)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block,dtype", [
    ((64, 128), torch.float16),   # 256-byte rows: two 128-byte boxes
    ((128, 64), torch.float16),   # one box, 128-byte swizzle
    ((64, 32), torch.float16),    # 64-byte swizzle
    ((32, 16), torch.bfloat16),   # 32-byte swizzle
    ((64, 32), torch.float32),    # 128-byte rows of fp32
    ((32, 64), torch.float32),    # two boxes of fp32
], ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else
    str(v).replace("torch.", ""))
def test_tma_roundtrip(shape, block, dtype):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    M, N = shape
    BM, BN = block
    gen = torch.Generator(device="cuda").manual_seed(M * 7 + N)
    x = torch.randn(shape, device="cuda", generator=gen).to(dtype)
    # The output lives inside a larger poisoned tensor: a store outside
    # the described region (a wrong clip or box) would show there.
    big = torch.full((M + 8, N + 16), float("nan"), device="cuda",
                     dtype=dtype)
    y = big[4:4 + M, 8:8 + N]
    xd = txl.TensorDescriptor.from_tensor(x, [BM, BN])
    yd = txl.TensorDescriptor(y, list(y.shape), list(y.stride()), [BM, BN])
    grid = ((M + BM - 1) // BM, (N + BN - 1) // BN)
    tma_scale[grid](xd, yd, BM=BM, BN=BN, DT=TL[dtype])
    torch.cuda.synchronize()
    want = (x.double() * 2 + 1).to(dtype)
    torch.testing.assert_close(y, want, atol=0, rtol=0)
    outside = big.clone()
    outside[4:4 + M, 8:8 + N] = 0
    assert torch.isnan(outside).sum() == outside.numel() - M * N
