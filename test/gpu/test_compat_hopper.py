"""The TXL-project idioms issue 13 made compile, run against float64 PyTorch
references with poisoned outputs: the implicit dot_wait(0) at the exit of a
loop that ends on dot_wait(1), smem_slice views inside a swizzle span as
wgmma operands, 1-D tensor descriptors, and cp.async of the pointers the
axis analysis now proves contiguous."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_compat_hopper import (desc_axpb_1d, kloop_exit_wait, rega_from_smem,
                                        made_axpb_1d, span_slice_dot,
                                        tma_axpb_1d)

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


@pytest.mark.parametrize("shape", [(128, 128, 64, 32), (64, 64, 64, 16),
                                   (128, 64, 128, 32), (64, 128, 128, 16)],
                         ids=lambda s: "x".join(map(str, s)))
def test_slice_inside_swizzle_span(shape):
    """K slices narrower than the 128-byte swizzle span feed wgmma."""
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    bm, bn, bk, ks = shape
    gen = torch.Generator(device="cuda").manual_seed(bm + 3 * bn + 5 * bk + ks)
    a = random_tensor((bm, bk), torch.float16, generator=gen)
    b = random_tensor((bn, bk), torch.float16, generator=gen)
    c = torch.empty((bm, bn), dtype=torch.float16, device="cuda")

    def launch(c_, a_, b_):
        span_slice_dot[(1,)](a_, b_, c_, BM=bm, BN=bn, BK=bk, KS=ks,
                             num_warps=4)

    check(launch, lambda a_, b_: a_ @ b_.T, inputs=[a, b], outputs=[c],
          atol=2e-2, rtol=1e-2)


@pytest.mark.parametrize("kind", ["desc", "tma", "made"])
@pytest.mark.parametrize("n,block", [(4096, 64), (1000, 128), (77, 32),
                                     (5000, 256)],
                         ids=lambda v: str(v))
def test_1d_descriptors(kind, n, block):
    """1-D TMA: ragged sizes (the last block's out-of-bounds part reads as
    zero and is not written)."""
    if not hopper():
        pytest.skip("TMA needs sm_90")
    import txl
    gen = torch.Generator(device="cuda").manual_seed(n + block)
    x = random_tensor((n,), torch.float32, generator=gen)
    y = torch.empty((n,), dtype=torch.float32, device="cuda")
    grid = ((n + block - 1) // block,)

    def launch(y_, x_):
        if kind == "made":
            made_axpb_1d[grid](x_, y_, n, BLOCK=block)
            return
        xd = txl.TensorDescriptor(x_, [n], [1], [block])
        yd = txl.TensorDescriptor(y_, [n], [1], [block])
        kernel = desc_axpb_1d if kind == "desc" else tma_axpb_1d
        kernel[grid](xd, yd, BLOCK=block)

    check(launch, lambda x_: x_ * 2.0 + 1.0, inputs=[x], outputs=[y],
          atol=0, rtol=0)


@pytest.mark.parametrize("n", [1, 3])
def test_register_a_from_shared_and_small_buffers(n):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    gen = torch.Generator(device="cuda").manual_seed(17 + n)
    q = random_tensor((64, 64), torch.float16, generator=gen)
    k = random_tensor((64, 64), torch.float16, generator=gen)
    o = torch.empty((64, 64), dtype=torch.float32, device="cuda")
    stats = torch.empty((64,), dtype=torch.float32, device="cuda")

    def launch(o_, stats_, q_, k_):
        rega_from_smem[(1,)](q_, k_, o_, n, stats_, num_warps=4)

    def reference(q_, k_):
        s = n * (q_ @ k_.T)
        return s, s.sum(1) + s.max(1).values

    check(launch, reference, inputs=[q, k], outputs=[o, stats],
          atol=5e-2, rtol=1e-3)
