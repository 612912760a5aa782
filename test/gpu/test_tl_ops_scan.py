"""tl.cumsum / tl.cumprod / tl.associative_scan (and the other reductions
and orderings in txl_kernels_scan.py) against PyTorch: random inputs,
poisoned outputs, ragged sizes (masked tails), both directions, both axes
of 2-D tiles, tile shapes whose axis lies in registers only, in lanes, and
across warps."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_scan import (bitonic_merge_kernel, cumprod_2d_kernel,
                              cumsum_1d_kernel, cumsum_2d_kernel,
                              cumsum_small_int_kernel, fill_forward_kernel,
                              histogram_2d_source_kernel, histogram_kernel,
                              int8_dot_kernel, linear_recurrence_kernel,
                              reduce_or_kernel, sort_kernel, topk_kernel)

pytestmark = real_compiler


def cdiv(a, b):
    return -(-a // b)


def block_cumsum(x, block, reverse):
    """cumsum of each `block`-element piece of the 1-D x."""
    n = x.numel()
    padded = torch.zeros(cdiv(n, block) * block, dtype=x.dtype,
                         device=x.device)
    padded[:n] = x
    p = padded.view(-1, block)
    out = (p.flip(1).cumsum(1).flip(1) if reverse else p.cumsum(1))
    return out.reshape(-1)[:n]


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.int64])
@pytest.mark.parametrize("BLOCK,n", [(32, 32), (128, 100), (1024, 1000),
                                     (2048, 5000), (4096, 4097)])
def test_cumsum_1d(BLOCK, n, dtype, reverse):
    x = random_tensor((n,), dtype, low=-100, high=100)
    out = torch.empty_like(x)

    def launch(out_, x_):
        cumsum_1d_kernel[(cdiv(n, BLOCK),)](x_, out_, n, REVERSE=reverse,
                                            BLOCK=BLOCK)

    # fp32 running sums of up to 4096 normals (magnitude ~64) against an
    # exact one: rounding grows with the partial sums, a wrong element is
    # off by ~1.
    atol, rtol = (2e-3, 1e-4) if dtype.is_floating_point else (0, 0)
    check(launch, lambda x_: block_cumsum(x_, BLOCK, reverse), inputs=[x],
          outputs=[out], atol=atol, rtol=rtol)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("BM,BN,M,N", [(16, 16, 16, 16), (64, 32, 50, 30),
                                       (128, 128, 128, 100),
                                       (256, 8, 200, 8), (8, 512, 5, 512)])
def test_cumsum_2d(BM, BN, M, N, axis, reverse):
    x = random_tensor((M, N), torch.float32)
    out = torch.empty_like(x)

    def launch(out_, x_):
        cumsum_2d_kernel[(1,)](x_, out_, M, N, AXIS=axis, REVERSE=reverse,
                               BM=BM, BN=BN)

    def reference(x_):
        return (x_.flip(axis).cumsum(axis).flip(axis) if reverse
                else x_.cumsum(axis))

    check(launch, reference, inputs=[x], outputs=[out], atol=1e-3,
          rtol=1e-4)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32])
def test_cumprod_2d(axis, reverse, dtype):
    M, N, BM, BN = 30, 60, 32, 64
    if dtype.is_floating_point:
        # Near 1 so the products stay in range.
        x = 1 + 0.05 * torch.randn((M, N), device="cuda")
    else:
        x = torch.randint(-2, 3, (M, N), dtype=dtype, device="cuda")
    out = torch.empty_like(x)

    def launch(out_, x_):
        cumprod_2d_kernel[(1,)](x_, out_, M, N, AXIS=axis, REVERSE=reverse,
                                BM=BM, BN=BN)

    def reference(x_):
        return (x_.flip(axis).cumprod(axis).flip(axis) if reverse
                else x_.cumprod(axis))

    tol = 1e-4 if dtype.is_floating_point else 0
    check(launch, reference, inputs=[x], outputs=[out], atol=tol, rtol=tol)


@pytest.mark.parametrize("n", [1, 77, 256])
def test_cumsum_int8_widens(n):
    """int8 values whose running sum overflows int8: the int32 result is
    exact."""
    x = torch.randint(100, 128, (n,), dtype=torch.int8, device="cuda")
    out = torch.empty((n,), dtype=torch.int32, device="cuda")

    def launch(out_, x_):
        cumsum_small_int_kernel[(1,)](x_, out_, n, BLOCK=256)

    check(launch, lambda x_: x_.to(torch.int64).cumsum(0), inputs=[x],
          outputs=[out], atol=0, rtol=0)


def linear_recurrence(a, b, reverse):
    """h_i = a_i h_{i-1} + b_i in float64 (from the end with reverse)."""
    a, b = a.double().cpu(), b.double().cpu()
    idx = range(a.numel() - 1, -1, -1) if reverse else range(a.numel())
    h, out = 0.0, torch.empty_like(a)
    for i in idx:
        h = a[i].item() * h + b[i].item()
        out[i] = h
    return out.cuda()


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("BLOCK,n", [(64, 64), (512, 300), (2048, 2048)])
def test_associative_scan_tuple_noncommutative(BLOCK, n, reverse):
    a = 0.5 + 0.5 * torch.rand((n,), device="cuda")
    b = torch.randn((n,), device="cuda")
    out = torch.empty_like(a)

    def launch(out_, a_, b_):
        linear_recurrence_kernel[(1,)](a_, b_, out_, n, REVERSE=reverse,
                                       BLOCK=BLOCK)

    check(launch, lambda a_, b_: linear_recurrence(a_, b_, reverse),
          inputs=[a, b], outputs=[out], atol=1e-3, rtol=1e-4)


@pytest.mark.parametrize("N", [2, 32, 128, 1024])
def test_associative_scan_fill_forward(N):
    M, BM = 37, 4
    x = torch.randint(-3, 4, (M, N), dtype=torch.int32, device="cuda")
    x[torch.rand((M, N), device="cuda") < 0.7] = 0
    out = torch.empty_like(x)

    def launch(out_, x_):
        fill_forward_kernel[(cdiv(M, BM),)](x_, out_, M, N=N, BM=BM)

    def reference(x_):
        x_ = x_.cpu()
        res = x_.clone()
        for j in range(1, N):
            res[:, j] = torch.where(x_[:, j] != 0, x_[:, j], res[:, j - 1])
        return res.cuda()

    check(launch, reference, inputs=[x], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("acc_arg", [False, True])
@pytest.mark.parametrize("M,N,K,BM,BN,BK", [(64, 64, 64, 64, 64, 32),
                                            (100, 70, 200, 64, 64, 64),
                                            (128, 256, 96, 128, 128, 32),
                                            (33, 17, 45, 32, 32, 32)])
def test_int8_dot(M, N, K, BM, BN, BK, acc_arg):
    """int8 x int8 -> int32 against an exact int64 matmul on the CPU (full
    int8 range; every partial sum fits int32)."""
    a = torch.randint(-128, 128, (M, K), dtype=torch.int8, device="cuda")
    b = torch.randint(-128, 128, (K, N), dtype=torch.int8, device="cuda")
    out = torch.empty((M, N), dtype=torch.int32, device="cuda")

    def launch(out_, a_, b_):
        int8_dot_kernel[(cdiv(M, BM), cdiv(N, BN))](
            a_, b_, out_, M, N, K, ACC_ARG=acc_arg, BM=BM, BN=BN, BK=BK)

    check(launch, lambda a_, b_: (a_.cpu().long() @ b_.cpu().long()).cuda(),
          inputs=[a, b], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int8, torch.int64])
@pytest.mark.parametrize("NUM_BINS,BLOCK,n", [(8, 128, 128), (32, 256, 200),
                                              (64, 1024, 1000),
                                              (512, 512, 300)])
def test_histogram(NUM_BINS, BLOCK, n, dtype):
    high = min(NUM_BINS, 127)
    x = torch.randint(0, high, (n,), dtype=dtype, device="cuda")
    out = torch.empty((NUM_BINS,), dtype=torch.int32, device="cuda")

    def launch(out_, x_):
        histogram_kernel[(1,)](x_, out_, n, NUM_BINS=NUM_BINS, BLOCK=BLOCK)

    check(launch,
          lambda x_: torch.bincount(x_.long(), minlength=NUM_BINS)[:NUM_BINS],
          inputs=[x], outputs=[out], atol=0, rtol=0)


def test_histogram_out_of_range_wraps():
    """Triton 3.6 bins a value by its low bits over max(num_bins, 32)
    counters: with 64 bins, 64 + 3 counts in bin 3 and -1 in bin 63; with
    8 bins, 9 (bin 9 of 32) is not counted and 33 counts in bin 1."""
    vals64 = torch.tensor([3, 67, -1, 63, 200, 5], dtype=torch.int32,
                          device="cuda")
    out64 = torch.empty((64,), dtype=torch.int32, device="cuda")

    def expected(x, bins):
        counters = max(bins, 32)
        b = x.long() & (counters - 1)
        b = b[b < bins]
        return torch.bincount(b, minlength=bins)[:bins]

    def launch64(out_, x_):
        histogram_kernel[(1,)](x_, out_, 6, NUM_BINS=64, BLOCK=8)

    check(launch64, lambda x_: expected(x_, 64), inputs=[vals64],
          outputs=[out64], atol=0, rtol=0)
    vals8 = torch.tensor([1, 9, 33, 7, -25, 8, 2, 2], dtype=torch.int32,
                         device="cuda")
    out8 = torch.empty((8,), dtype=torch.int32, device="cuda")

    def launch8(out_, x_):
        histogram_kernel[(1,)](x_, out_, 8, NUM_BINS=8, BLOCK=8)

    check(launch8, lambda x_: expected(x_, 8), inputs=[vals8],
          outputs=[out8], atol=0, rtol=0)


def test_histogram_2d_source():
    BM, BN, bins = 32, 64, 128
    x = torch.randint(0, bins, (BM, BN), dtype=torch.int32, device="cuda")
    out = torch.empty((bins,), dtype=torch.int32, device="cuda")

    def launch(out_, x_):
        histogram_2d_source_kernel[(1,)](x_, out_, NUM_BINS=bins, BM=BM,
                                         BN=BN)

    check(launch,
          lambda x_: torch.bincount(x_.reshape(-1).long(), minlength=bins),
          inputs=[x], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int8, torch.int64])
@pytest.mark.parametrize("N", [2, 64, 256])
def test_reduce_or(N, dtype):
    M, BM = 45, 16
    # Sparse bits so the OR is not all-ones.
    x = (torch.randint(0, 2, (M, N), dtype=dtype, device="cuda")
         << torch.randint(0, 7, (M, N), dtype=dtype, device="cuda"))
    out = torch.empty((M,), dtype=dtype, device="cuda")

    def launch(out_, x_):
        reduce_or_kernel[(cdiv(M, BM),)](x_, out_, M, N=N, BM=BM)

    def reference(x_):
        res = torch.zeros((M,), dtype=x_.dtype, device=x_.device)
        for j in range(N):
            res |= x_[:, j]
        return res

    check(launch, reference, inputs=[x], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16,
                                   torch.int32, torch.int8])
@pytest.mark.parametrize("N", [1, 2, 16, 128])
def test_sort(N, dtype, descending):
    M, BM = 37, 8
    x = random_tensor((M, N), dtype, low=-100, high=100)
    out = torch.empty_like(x)

    def launch(out_, x_):
        sort_kernel[(cdiv(M, BM),)](x_, out_, M, N=N, BM=BM,
                                    DESCENDING=descending)

    check(launch,
          lambda x_: torch.sort(x_, dim=1, descending=descending).values,
          inputs=[x], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("N,K", [(16, 4), (64, 64), (128, 1), (256, 8)])
def test_topk(N, K):
    M, BM = 20, 4
    x = torch.randn((M, N), device="cuda")
    out = torch.empty((M, K), device="cuda")

    def launch(out_, x_):
        topk_kernel[(cdiv(M, BM),)](x_, out_, M, N=N, K=K, BM=BM)

    check(launch, lambda x_: torch.topk(x_, K, dim=1).values, inputs=[x],
          outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("descending", [False, True])
def test_bitonic_merge(descending):
    N = 256
    lo = torch.sort(torch.randn(N // 2, device="cuda")).values
    hi = torch.sort(torch.randn(N // 2, device="cuda"),
                    descending=True).values
    x = torch.cat([lo, hi])
    out = torch.empty_like(x)

    def launch(out_, x_):
        bitonic_merge_kernel[(1,)](x_, out_, N=N, DESCENDING=descending)

    check(launch, lambda x_: torch.sort(x_, descending=descending).values,
          inputs=[x], outputs=[out], atol=0, rtol=0)
