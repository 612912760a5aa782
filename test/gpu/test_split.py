"""tl.split: Triton's epilogue idiom (reshape to [M, 2, N/2], permute,
split) on a wgmma accumulator (a choice of registers) and on a loaded tile
(moved to a layout whose tile fits a half first), and the split of a
tensor whose last dimension is 2. float64 references, poisoned outputs."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_split import dot_halves, pairs, tile_halves, vector_halves

pytestmark = real_compiler


@pytest.mark.parametrize("BN", [64, 128, 256])
def test_dot_halves(BN):
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the wgmma accumulator path needs sm_90a")
    BM, BK = 64, 64
    a = random_tensor((BM, BK), torch.float16)
    b = random_tensor((BK, BN), torch.float16)
    left = torch.empty((BM, BN // 2), dtype=torch.float16, device="cuda")
    right = torch.empty_like(left)

    def launch(left_, right_, a_, b_):
        dot_halves[(1,)](a_, b_, left_, right_, BM=BM, BN=BN, BK=BK,
                         num_warps=4)

    def reference(a_, b_):
        c = a_ @ b_
        return c[:, :BN // 2], c[:, BN // 2:]

    check(launch, reference, inputs=[a, b], outputs=[left, right],
          atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("M,N", [(64, 128), (32, 64), (128, 32), (16, 256)])
def test_tile_halves(M, N):
    x = random_tensor((M, N), torch.float32)
    left = torch.empty((M, N // 2), dtype=torch.float32, device="cuda")
    right = torch.empty_like(left)

    def launch(left_, right_, x_):
        tile_halves[(1,)](x_, left_, right_, M=M, N=N, num_warps=4)

    check(launch, lambda x_: (x_[:, :N // 2] * 2, x_[:, N // 2:] * 3),
          inputs=[x], outputs=[left, right], atol=0, rtol=0)


@pytest.mark.parametrize("M", [32, 128, 1024])
def test_pairs(M):
    x = random_tensor((M, 2), torch.float32)
    even = torch.empty((M,), dtype=torch.float32, device="cuda")
    odd = torch.empty_like(even)

    def launch(even_, odd_, x_):
        pairs[(1,)](x_, even_, odd_, M=M, num_warps=4)

    check(launch, lambda x_: (x_[:, 0], x_[:, 1]), inputs=[x],
          outputs=[even, odd], atol=0, rtol=0)


@pytest.mark.parametrize("N", [64, 128, 256, 1024])
def test_vector_halves(N):
    x = random_tensor((N,), torch.float32)
    lo = torch.empty((N // 2,), dtype=torch.float32, device="cuda")
    hi = torch.empty_like(lo)

    def launch(lo_, hi_, x_):
        vector_halves[(1,)](x_, lo_, hi_, N=N, num_warps=4)

    check(launch, lambda x_: (x_[:N // 2], x_[N // 2:]), inputs=[x],
          outputs=[lo, hi], atol=0, rtol=0)
