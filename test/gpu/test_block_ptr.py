"""tl.make_block_ptr / tl.advance: a block-pointer matmul (whose loads the
cp.async pipeliner takes like pointer-tensor loads) and boundary_check with
zero / NaN padding, against torch at aligned and ragged sizes, strided and
transposed views."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_block_ptr import bp_matmul, bp_pad

pytestmark = real_compiler


@pytest.mark.parametrize("size", [(128, 128, 64), (200, 136, 100),
                                  (512, 256, 1024), (1, 16, 32)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("tile", [(128, 128, 64, 8), (64, 64, 32, 4)],
                         ids=lambda t: "_".join(map(str, t)))
@pytest.mark.parametrize("b_transposed", [False, True], ids=["B", "Bt"])
def test_block_ptr_matmul(size, tile, b_transposed):
    M, N, K = size
    bm, bn, bk, warps = tile
    gen = torch.Generator(device="cuda").manual_seed(M * 7919 + N * 31 + K)
    a = random_tensor((M, K), torch.float16, generator=gen)
    if b_transposed:
        b = random_tensor((N, K), torch.float16, generator=gen).t()
    else:
        b = random_tensor((K, N), torch.float16, generator=gen)
    c = torch.empty((M, N), dtype=torch.float16, device="cuda")

    def launch(c_, a_, b_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        bp_matmul[grid](a_, b_, c_, M, N, K, a_.stride(0), a_.stride(1),
                        b_.stride(0), b_.stride(1), c_.stride(0), c_.stride(1),
                        BM=bm, BN=bn, BK=bk, num_warps=warps)

    check(launch, lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=1e-2 * max(1, K ** 0.5 / 8), rtol=1e-3)


@pytest.mark.parametrize("shape", [(64, 64), (100, 70), (5, 130)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("nan", [False, True], ids=["zero", "nan"])
def test_block_ptr_padding(shape, nan):
    M, N = shape
    bm, bn = 32, 64
    x = random_tensor((M, 2 * N), torch.float32)[:, ::2]  # strided columns
    gm, gn = (M + bm - 1) // bm, (N + bn - 1) // bn
    y = torch.empty((gm * bm, gn * bn), dtype=torch.float32, device="cuda")

    def launch(y_, x_):
        bp_pad[(gm, gn)](x_, y_, M, N, x_.stride(0), x_.stride(1), BM=bm,
                         BN=bn, NAN=nan, num_warps=4)

    def reference(x_):
        fill = float("nan") if nan else 0.0
        out = torch.full((gm * bm, gn * bn), fill, dtype=torch.float64,
                         device=x_.device)
        out[:M, :N] = x_
        return out

    # equal_nan: the padding itself is NaN in the "nan" case.
    y.fill_(-7.0)
    launch(y, x)
    torch.cuda.synchronize()
    torch.testing.assert_close(y, reference(x.double()).float(), atol=0,
                               rtol=0, equal_nan=True)
