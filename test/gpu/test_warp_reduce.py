"""txl.warp_max / txl.warp_sum: reductions kept inside each warp (shuffles
only), on blocked tiles and on a wgmma accumulator; float64 references,
ragged row counts, poisoned outputs."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_warp_reduce import accumulator_row_max, row_reduce

pytestmark = real_compiler


@pytest.mark.parametrize("M", [1, 16, 100, 1000])
# Tiles whose rows the default layout keeps in one warp each (a [32, 256]
# tile gets warps side by side along the rows and is rejected at compile
# time; see test/lit/e2e/warp-reduce.mlir).
@pytest.mark.parametrize("N,BM", [(128, 16), (64, 32), (32, 64)],
                         ids=["128x16", "64x32", "32x64"])
def test_row_reduce(M, N, BM):
    x = random_tensor((M, N), torch.float32)
    mx = torch.empty((M,), dtype=torch.float32, device="cuda")
    sm = torch.empty((M,), dtype=torch.float32, device="cuda")

    def launch(mx_, sm_, x_):
        row_reduce[((M + BM - 1) // BM,)](x_, mx_, sm_, M, N=N, BM=BM,
                                          num_warps=4)

    check(launch, lambda x_: (x_.amax(dim=1), x_.sum(dim=1)), inputs=[x],
          outputs=[mx, sm], atol=1e-4, rtol=1e-5)


@pytest.mark.parametrize("D", [32, 64, 128])
def test_accumulator_row_max(D):
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90a")
    q = random_tensor((64, D), torch.float16)
    k = random_tensor((64, D), torch.float16)
    out = torch.empty((64,), dtype=torch.float32, device="cuda")

    def launch(out_, q_, k_):
        accumulator_row_max[(1,)](q_, k_, out_, D=D, num_warps=4)

    # fp32 accumulation of exact fp16 products: within a few ulps.
    check(launch, lambda q_, k_: (q_ @ k_.T).amax(dim=1), inputs=[q, k],
          outputs=[out], atol=1e-3, rtol=1e-5)
