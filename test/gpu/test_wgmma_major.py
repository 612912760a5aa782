"""tl.dot on shared buffers with MN-major operands: the descriptor strides
(LBO between swizzle-wide chunks, SBO between 8-row K groups) and the
transpose bits, checked against a float64 reference on aligned and ragged
sizes, one- and multi-chunk tiles, one and two warpgroups."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_mn_major import mn_dot

pytestmark = real_compiler


@pytest.mark.parametrize("size", [(128, 128, 64), (200, 136, 100),
                                  (256, 512, 192), (64, 72, 16)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block,warps", [((128, 128, 64), 4),
                                         ((64, 256, 64), 4),
                                         ((128, 64, 32), 4),
                                         ((64, 64, 128), 4),
                                         ((128, 256, 64), 8)],
                         ids=lambda v: "x".join(map(str, v))
                         if isinstance(v, tuple) else f"w{v}")
@pytest.mark.parametrize("a_m_major", [False, True], ids=["A_K", "A_M"])
def test_mn_major_dot(size, block, warps, a_m_major):
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("wgmma needs sm_90a")
    M, N, K = size
    bm, bn, bk = block
    gen = torch.Generator(device="cuda").manual_seed(M + 3 * N + 7 * K)
    a = random_tensor((M, K), torch.float16, generator=gen)
    b = random_tensor((K, N), torch.float16, generator=gen)
    c = torch.empty((M, N), dtype=torch.float16, device="cuda")
    a_arg = a.t().contiguous() if a_m_major else a

    def launch(c_, a_, b_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        mn_dot[grid](a_arg, b_, c_, M, N, K, BM=bm, BN=bn, BK=bk,
                     A_MAJOR_M=a_m_major, num_warps=warps)

    check(launch, lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=1e-2, rtol=1e-3)
