"""The TXL-project idioms issue 13 made compile, run against float64 PyTorch
references with poisoned outputs: the implicit dot_wait(0) at the exit of a
loop that ends on dot_wait(1)."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_compat_hopper import kloop_exit_wait

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


@pytest.mark.parametrize("size", [(128, 128, 256), (200, 136, 100),
                                  (64, 64, 16), (96, 200, 520)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block,warps", [((64, 64, 32), 4),
                                         ((128, 128, 64), 8)],
                         ids=lambda v: "x".join(map(str, v))
                         if isinstance(v, tuple) else f"w{v}")
def test_loop_exit_wait(size, block, warps):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    M, N, K = size
    bm, bn, bk = block
    gen = torch.Generator(device="cuda").manual_seed(M + 7 * N + 13 * K)
    a = random_tensor((M, K), torch.float16, generator=gen)
    b = random_tensor((K, N), torch.float16, generator=gen)
    c = torch.empty((M, N), dtype=torch.float16, device="cuda")

    def launch(c_, a_, b_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        kloop_exit_wait[grid](a_, b_, c_, M, N, K, BM=bm, BN=bn, BK=bk,
                              num_warps=warps)

    check(launch, lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=2e-2, rtol=1e-2)
