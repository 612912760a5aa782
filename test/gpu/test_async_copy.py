"""cp.async on the GPU: txl.async_load / txl.async_load_wait in explicit
kernels (an S-stage ring copy that wraps, zero-filled masked elements,
tl.dot on shared buffers filled by cp.async), and the automatic software
pipeliner on the plain Triton matmul (examples/matmul.py) at 2 to 5 stages,
with the loops it cannot pipeline falling back to register prefetch. Inputs
are random, outputs poisoned; copies compare exactly, products against a
float64 reference (harness.check)."""

import inspect
import re

import pytest
import torch

import triton.language as tl
import txl
from txl import _capi
from conftest import real_compiler
from harness import check, poison_, random_tensor
import txl_kernels_async_copy as kernels
# The examples/matmul.py launch helpers (and its txl.jit kernel object).
from test_dot import TYPES, matmul_call, matmul_kernel

pytestmark = real_compiler

TL = {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16,
      torch.float32: tl.float32}


def require_hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the kernels are compiled for sm_90a")


def ptx_of(launcher):
    return _capi.kernel_artifact(launcher.handle, "ptx").decode()


def dims(v):
    return "x".join(map(str, v))


def dtype_id(d):
    return str(d).replace("torch.", "")


# -- 1. an S-stage ring of async_loads -------------------------------------

RING_BM, RING_BN = 64, 64

# (dtype, (M, N)). fp16 rows need the row stride N divisible by 16 (the
# launcher's specialization), else a thread's provable runs are 2 bytes,
# too narrow for cp.async (see the compile-error test); with it they are
# 16-byte vectors. fp32 copies one 4-byte element per cp.async when N is
# not, so fp32 also gets an odd N.
# Aligned; ragged M with N ragged relative to BLOCK_N (208 = 3*64 + 16); a
# single tile, so the prologue's other stages are fully masked.
RING_CASES = [(dt, shape)
              for dt in (torch.float16, torch.float32)
              for shape in ((512, 256), (1000, 208), (17, 48))]
RING_CASES.append((torch.float32, (1000, 203)))


def wait_group_counts(ptx):
    """The pending-group counts of every cp.async.wait_group in the PTX."""
    return {int(n, 0) for n in
            re.findall(r"cp\.async\.wait_group\s+(0x[0-9a-fA-F]+|\d+)", ptx)}


def copy_widths(ptx):
    """The byte counts (cp-size) of every cp.async copy in the PTX."""
    return {int(n, 0) for n in re.findall(
        r"cp\.async\.c[ag]\.shared\.global\S*\s*\[[^\]]*\],\s*\[[^\]]*\],"
        r"\s*(0x[0-9a-fA-F]+|\d+)", ptx)}


@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("dtype,shape", RING_CASES,
                         ids=lambda v: dims(v) if isinstance(v, tuple)
                         else dtype_id(v))
def test_ring_copy(dtype, shape, stages):
    require_hopper()
    M, N = shape
    gen = torch.Generator(device="cuda").manual_seed(M * 31 + N)
    x = torch.randn(shape, device="cuda", generator=gen).to(dtype)
    # y is a window of a larger NaN tensor: an element stored outside it
    # (a wrong mask) or never stored (a lost tile) shows as NaN.
    big = torch.full((M + 8, N + 16), float("nan"), device="cuda",
                     dtype=dtype)
    y = big[4:4 + M, 8:8 + N]
    args = (x, y, M, N, x.stride(0), y.stride(0))
    meta = dict(BM=RING_BM, BN=RING_BN, S=stages, DT=TL[dtype], num_warps=4)
    kernels.ring_copy[((N + RING_BN - 1) // RING_BN,)](*args, **meta)
    torch.cuda.synchronize()
    torch.testing.assert_close(y, x, atol=0, rtol=0)
    outside = big.clone()
    outside[4:4 + M, 8:8 + N] = 0
    assert torch.isnan(outside).sum().item() == outside.numel() - M * N, \
        "the kernel wrote outside y"

    ptx = ptx_of(kernels.ring_copy.warmup(*args, **meta))
    assert "cp.async.commit_group" in ptx
    # The loop's wait leaves S - 2 groups pending; the drain waits for all.
    assert wait_group_counts(ptx) == {stages - 2, 0}
    # 16-byte vectors where the row stride is known divisible by 16
    # elements; otherwise one fp32 element per copy.
    assert copy_widths(ptx) == {16 if N % 16 == 0 else 4}


# -- mbar_arrive(track_async_op=True): the arrival follows the copies -------

# (dtype, (M, N), stages): rings that wrap many times (the free barrier's
# phases alternate), ragged M and N, a single tile, fp32 rows of odd width
# (4-byte copies).
TRACKED_CASES = [(torch.float16, (1000, 208), 2),
                 (torch.float16, (4096, 128), 3),
                 (torch.float32, (777, 203), 2),
                 (torch.float32, (17, 48), 4),
                 (torch.bfloat16, (2048, 64), 2)]


@pytest.mark.parametrize("dtype,shape,stages", TRACKED_CASES,
                         ids=lambda v: dims(v) if isinstance(v, tuple)
                         else dtype_id(v) if isinstance(v, torch.dtype)
                         else f"S{v}")
def test_tracked_arrive_waits_for_copies(dtype, shape, stages):
    """A producer warpgroup fills a poisoned shared ring with cp.async and
    signals each stage with mbar_arrive(track_async_op=True), without any
    cp.async wait; the consumer warpgroup waits on the barrier and copies
    the stage out. Every element must be x's: a stage read before its
    copies landed shows the poison (-3) or the previous tile."""
    require_hopper()
    M, N = shape
    gen = torch.Generator(device="cuda").manual_seed(M * 7 + N + stages)
    x = torch.randn(shape, device="cuda", generator=gen).to(dtype)
    big = torch.full((M + 8, N + 16), float("nan"), device="cuda",
                     dtype=dtype)
    y = big[4:4 + M, 8:8 + N]
    args = (x, y, M, N, x.stride(0), y.stride(0))
    meta = dict(BM=RING_BM, BN=RING_BN, S=stages, DT=TL[dtype], POISON=-3.0,
                num_warps=4, num_warpgroups=2)
    grid = ((N + RING_BN - 1) // RING_BN,)
    for _ in range(3):  # a race would not show every time
        y.fill_(float("nan"))
        kernels.tracked_ring_copy[grid](*args, **meta)
        torch.cuda.synchronize()
        torch.testing.assert_close(y, x, atol=0, rtol=0)
    outside = big.clone()
    outside[4:4 + M, 8:8 + N] = 0
    assert torch.isnan(outside).sum().item() == outside.numel() - M * N, \
        "the kernel wrote outside y"

    ptx = ptx_of(kernels.tracked_ring_copy.warmup(*args, **meta))
    assert "cp.async.mbarrier.arrive.noinc.shared" in ptx


# -- masked-off elements are zero-filled ------------------------------------

@pytest.mark.parametrize("zero_other", [False, True], ids=["no_other",
                                                           "other0"])
@pytest.mark.parametrize("dtype,shape", [(torch.float16, (100, 80)),
                                         (torch.float32, (100, 80)),
                                         (torch.float32, (37, 13))],
                         ids=lambda v: dims(v) if isinstance(v, tuple)
                         else dtype_id(v))
def test_masked_elements_read_zero(dtype, shape, zero_other):
    """Tiles that overhang x's bottom and right edges, stored whole into a
    padded y: the overhang must read back as 0, not as the -7 the kernel
    writes into the buffer before the copy."""
    require_hopper()
    M, N = shape
    BM, BN = 64, 64
    gm, gn = (M + BM - 1) // BM, (N + BN - 1) // BN
    gen = torch.Generator(device="cuda").manual_seed(M + N)
    x = torch.randn(shape, device="cuda", generator=gen).to(dtype)
    y = poison_(torch.empty((gm * BM, gn * BN), device="cuda", dtype=dtype))
    kernels.overhang_copy[(gm, gn)](x, y, M, N, x.stride(0), y.stride(0),
                                    BM=BM, BN=BN, DT=TL[dtype],
                                    ZERO_OTHER=zero_other, num_warps=4)
    torch.cuda.synchronize()
    want = torch.zeros_like(y)
    want[:M, :N] = x
    torch.testing.assert_close(y, want, atol=0, rtol=0)


# -- compile errors ---------------------------------------------------------

def call_line(fn, text):
    """The source line number (in the kernels module) of the only line of
    `fn` holding `text`."""
    lines, first = inspect.getsourcelines(fn.fn)
    hits = [first + i for i, line in enumerate(lines) if text in line]
    assert len(hits) == 1, hits
    return hits[0]


def assert_located_error(fn, line, launch):
    with pytest.raises(txl.CompilationError) as info:
        launch()
    message = str(info.value)
    # A user diagnostic at the call ("file:line:col: error: ..."), not an
    # internal pass failure.
    assert "internal error" not in message, message
    assert re.search(rf"txl_kernels_async_copy\.py:{line}:\d+: error",
                     message), message


def test_async_load_other_must_be_zero():
    require_hopper()
    x = torch.zeros((64, 64), device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    fn = kernels.bad_other_copy
    assert_located_error(fn, call_line(fn, "txl.async_load(buf"),
                         lambda: fn.warmup(x, y, BM=64, BN=64))


def test_async_load_needs_four_byte_runs():
    """fp16 rows of 200 elements: the specialization only proves a row
    stride divisible by 16 elements, so here each thread's provably
    contiguous, aligned run is one 2-byte element: too narrow for cp.async."""
    require_hopper()
    M, N = 64, 200
    x = torch.zeros((M, N), device="cuda", dtype=torch.float16)
    y = torch.empty((64, 256), device="cuda", dtype=torch.float16)
    fn = kernels.overhang_copy
    line = call_line(fn, "txl.async_load(buf, src, mask=mask)")
    assert_located_error(
        fn, line, lambda: fn.warmup(x, y, M, N, x.stride(0), y.stride(0),
                                    BM=64, BN=64, DT=tl.float16,
                                    ZERO_OTHER=False))


# -- 2. tl.dot on shared buffers filled by async_load ------------------------

# (BLOCK_M, BLOCK_N, BLOCK_K, stages)
GEMM_CONFIGS = [(128, 128, 64, 3), (64, 128, 32, 4), (64, 64, 64, 2)]
# K stays a multiple of 16 (16-byte copies); one K slice (fewer slices than
# the prologue issues); aligned; ragged M/N with a 16-wide K tail; a long,
# ragged one.
GEMM_SIZES = [(128, 128, 64), (256, 256, 512), (200, 136, 208),
              (333, 70, 1040)]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16],
                         ids=dtype_id)
@pytest.mark.parametrize("size", GEMM_SIZES, ids=dims)
@pytest.mark.parametrize("cfg", GEMM_CONFIGS, ids=dims)
def test_async_gemm(cfg, size, dtype):
    require_hopper()
    bm, bn, bk, stages = cfg
    M, N, K = size
    gen = torch.Generator(device="cuda").manual_seed(M * 131 + N * 7 + K)
    a = random_tensor((M, K), dtype, generator=gen)
    bt = random_tensor((N, K), dtype, generator=gen)
    c = torch.empty((M, N), device="cuda", dtype=torch.float32)
    grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
    meta = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, S=stages, DT=TL[dtype],
                num_warps=4)

    def launch(c_, a_, bt_):
        kernels.async_gemm[grid](a_, bt_, c_, M, N, K, a_.stride(0),
                                 bt_.stride(0), c_.stride(0), **meta)

    check(launch, lambda a_, bt_: a_ @ bt_.t(), inputs=[a, bt], outputs=[c],
          atol=1e-2 * max(1, K ** 0.5 / 8), rtol=1e-3)

    ptx = ptx_of(kernels.async_gemm.warmup(
        a, bt, c, M, N, K, a.stride(0), bt.stride(0), c.stride(0), **meta))
    assert "wgmma.mma_async" in ptx
    assert wait_group_counts(ptx) == {2 * (stages - 2), 0}
    assert copy_widths(ptx) == {16}


# -- 3. the plain matmul through the automatic pipeliner --------------------

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps)
PIPE_TILES = [(128, 128, 64, 8), (128, 256, 64, 8), (64, 128, 64, 4)]
# Every operand row stride and K divisible by 16, so A and B both qualify
# for 16-byte cp.async: ragged M, N ragged relative to every tile (272), K
# a multiple of 16 but not of BLOCK_K; and an aligned problem.
RAGGED_PIPELINED = (300, 272, 1040)
ALIGNED_PIPELINED = (384, 512, 256)
# K = 1000 and K = 1032 are multiples of 8 but not of 16: the launcher does
# not mark them (nor A's row stride) divisible by 16, so A's loads cannot
# be proven 4-byte aligned. Which loads, if any, take cp.async is the
# compiler's choice (today the whole loop keeps the register prefetch);
# the results must be right either way.
UNALIGNED_K_SIZES = [(513, 257, 1000), (200, 144, 1032)]
# Shared memory for S stages up to which the pipeliner must keep all S
# (its staging budget is 200 KiB; the epilogue's conversions reuse those
# bytes); beyond it it may use fewer stages.
SURELY_FITS = 192 * 1024


def run_matmul(size, tile, stages, a_col_major=False):
    """Checks one examples/matmul.py launch with num_stages=stages (fp16
    in and out); returns the Launcher that ran."""
    M, N, K = size
    out_dtype, atol, rtol = TYPES[torch.float16]
    gen = torch.Generator(device="cuda").manual_seed(M * 7919 + N * 31 + K)
    if a_col_major:  # stride_am == 1, stride_ak == M
        a = random_tensor((K, M), torch.float16, generator=gen).t()
    else:
        a = random_tensor((M, K), torch.float16, generator=gen)
    b = random_tensor((K, N), torch.float16, generator=gen)
    c = torch.empty((M, N), device="cuda", dtype=out_dtype)

    def launch(c_, a_, b_):
        grid, args, kwargs = matmul_call(c_, a_, b_, tile)
        matmul_kernel[grid](*args, num_stages=stages, **kwargs)

    check(launch, lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=atol * max(1, K ** 0.5 / 8), rtol=rtol)
    _, args, kwargs = matmul_call(c, a, b, tile)
    return matmul_kernel.warmup(*args, num_stages=stages, **kwargs)


def assert_pipelined(launcher, tile, stages):
    ptx = ptx_of(launcher)
    assert "cp.async.commit_group" in ptx, "the K loop was not pipelined"
    assert "wgmma.mma_async" in ptx
    assert copy_widths(ptx) == {16}
    # One group per K slice (A and B together), S - 1 in flight: the loop
    # waits until S - 2 are pending; the epilogue drains them all.
    counts = wait_group_counts(ptx)
    assert 0 in counts and len(counts) <= 2, counts
    loop_wait = max(counts)
    bm, bn, bk, _ = tile
    slice_bytes = (bm * bk + bk * bn) * 2
    if stages * slice_bytes <= SURELY_FITS:
        assert loop_wait == stages - 2
    else:
        assert 1 <= loop_wait <= stages - 2
    # The ring of loop_wait + 2 slices is in shared memory.
    assert launcher.metadata["shared_bytes"] >= (loop_wait + 2) * slice_bytes


@pytest.mark.parametrize("stages", [2, 3, 4, 5])
@pytest.mark.parametrize("tile", PIPE_TILES, ids=dims)
def test_matmul_pipelined(tile, stages):
    require_hopper()
    launcher = run_matmul(RAGGED_PIPELINED, tile, stages)
    assert_pipelined(launcher, tile, stages)


@pytest.mark.parametrize("tile", PIPE_TILES, ids=dims)
def test_matmul_pipelined_aligned(tile):
    require_hopper()
    assert_pipelined(run_matmul(ALIGNED_PIPELINED, tile, 3), tile, 3)


@pytest.mark.parametrize("size", UNALIGNED_K_SIZES, ids=dims)
@pytest.mark.parametrize("tile", PIPE_TILES, ids=dims)
def test_matmul_unaligned_k(tile, size):
    require_hopper()
    run_matmul(size, tile, 4)


@pytest.mark.parametrize("stages", [3, 5])
@pytest.mark.parametrize("tile", [(64, 128, 64, 4), (128, 128, 64, 8)],
                         ids=dims)
def test_matmul_fallback(tile, stages):
    """K = 999 and N = 257 (the row strides of A and B): every thread's
    runs of A and B are provably one 2-byte element, so no cp.async at all:
    the loop keeps the register prefetch."""
    require_hopper()
    launcher = run_matmul((513, 257, 999), tile, stages)
    assert "cp.async" not in ptx_of(launcher)


@pytest.mark.parametrize("stages", [2, 4])
def test_matmul_strided_a(stages):
    """A column-major (stride_am = 1, stride_ak = M = 300): A is contiguous
    along M, but its columns start at addresses only provably 2-byte
    aligned, so its runs are single elements; B's are 16-byte vectors."""
    require_hopper()
    run_matmul((300, 272, 160), (64, 128, 64, 4), stages, a_col_major=True)
