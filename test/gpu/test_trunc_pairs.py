"""fp32 -> fp16 and bf16 conversions of tensors, bit for bit against
PyTorch's (round to nearest even): specials (signed zeros, infinities,
NaN, the largest finite values and the first that overflow, subnormal
results, halfway cases) and random values, 1-D with few and many
registers a thread and 2-D tiles (rounded one register at a time), and
values rounded in one loop iteration and stored in the next. Under
TXL_TRUNC_PAIRS=1 (read once per process: run the file under it to check
that path) the lowering rounds those registers in pairs, one
cvt.rn.f16x2.f32, when the result leaves its block and their count is
even (ElementwiseOpToLLVM.cpp)."""

import pytest
import torch

from conftest import real_compiler
from harness import poison_
from txl_kernels_trunc import trunc, trunc_2d, trunc_carried

pytestmark = real_compiler

DTYPES = [torch.float16, torch.bfloat16]


def values(n, dtype, seed):
    """n fp32 values: the specials of `dtype` first, then random ones over
    its whole range."""
    info = torch.finfo(dtype)
    big, tiny = info.max, info.smallest_normal
    specials = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), big,
                -big, big * (1 + 2 ** -12), big * 1.01, tiny, -tiny,
                tiny / 3, tiny * 2 ** -9, tiny * 2 ** -12, 1.0 + info.eps / 2,
                1.0 + info.eps * 1.5, -1.0 - info.eps / 2, 2.0 ** -30, 3.0]
    gen = torch.Generator(device="cuda").manual_seed(seed)
    rand = torch.randn(n, device="cuda", generator=gen)
    scale = torch.pow(2.0, torch.randint(-30, 30, (n,), device="cuda",
                                         generator=gen).float())
    x = rand * scale
    k = min(len(specials), n)
    x[:k] = torch.tensor(specials[:k], device="cuda")
    return x


def same_bits(got, want):
    assert torch.equal(got.view(torch.int16), want.view(torch.int16)), \
        f"{(got.view(torch.int16) != want.view(torch.int16)).sum()} differ"


@pytest.mark.parametrize("dtype", DTYPES, ids=["fp16", "bf16"])
@pytest.mark.parametrize("n,block", [(1, 32), (100, 128), (1000, 256),
                                     (5000, 1024), (4099, 2048)])
def test_trunc(n, block, dtype):
    x = values(n, dtype, n)
    y = poison_(torch.empty(n, device="cuda", dtype=dtype))
    trunc[((n + block - 1) // block,)](x, y, n, BLOCK=block)
    torch.cuda.synchronize()
    same_bits(y, x.to(dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=["fp16", "bf16"])
@pytest.mark.parametrize("M,N,BM,BN", [(64, 64, 64, 64), (100, 30, 32, 32),
                                       (7, 128, 8, 128)])
def test_trunc_2d(M, N, BM, BN, dtype):
    x = values(M * N, dtype, M + N).view(M, N)
    y = poison_(torch.empty((M, N), device="cuda", dtype=dtype))
    trunc_2d[((M + BM - 1) // BM,)](x, y, M, N, BM=BM, BN=BN)
    torch.cuda.synchronize()
    same_bits(y, x.to(dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=["fp16", "bf16"])
@pytest.mark.parametrize("steps,block", [(1, 256), (5, 256), (9, 1024),
                                         (3, 64)])
def test_trunc_carried(steps, block, dtype):
    x = values(steps * block, dtype, steps * block)
    y = poison_(torch.empty(steps * block, device="cuda", dtype=dtype))
    trunc_carried[(1,)](x, y, steps, BLOCK=block)
    torch.cuda.synchronize()
    same_bits(y, x.to(dtype))
