"""tl.dot on fp8 operands (e4m3, e5m2) through wgmma: the tutorial matmul
(examples/matmul.py) with 8-bit A and B, fp32 accumulation, fp16 output.
8-bit wgmma operands must be K-major, so B (N-contiguous in memory) is
staged through registers and the loop takes the register-prefetch path.
The products are exact; the tensor core's reduced-precision fp8
accumulation and the fp16 output round."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from test_dot import matmul_call, matmul_kernel

pytestmark = real_compiler

FP8 = [torch.float8_e4m3fn, torch.float8_e5m2]


@pytest.mark.parametrize("dtype", FP8, ids=["e4m3", "e5m2"])
@pytest.mark.parametrize("size", [(128, 128, 64), (200, 152, 96),
                                  (512, 256, 1024), (1, 16, 32)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("tile", [(128, 128, 64, 8), (64, 64, 64, 4),
                                  (128, 256, 64, 8)],
                         ids=lambda t: "_".join(map(str, t)))
def test_matmul_fp8(dtype, size, tile):
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("fp8 wgmma needs sm_90a")
    M, N, K = size
    gen = torch.Generator(device="cuda").manual_seed(M * 7919 + N * 31 + K)
    a = random_tensor((M, K), dtype, generator=gen)
    b = random_tensor((K, N), dtype, generator=gen)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)

    def launch(c_, a_, b_):
        grid, args, kwargs = matmul_call(c_, a_, b_, tile)
        matmul_kernel[grid](*args, **kwargs)

    # Hopper's fp8 wgmma adds the products with fewer than fp32's mantissa
    # bits (about 14), so the error grows with K; a missing or doubled K
    # tile would be off by ~8, far outside this.
    check(launch, lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=max(1e-2, K * 2.0 ** -12), rtol=2e-3)
