"""Session 9's test_core classes against PyTorch: scalar atomics with an
unused result (every sem, 16-bit floats included), tl.dot with fp16
results, fp64 operands, every fp32 input_precision and M/N below 16, a
spin lock built on tensor.item(), split to scalars, '>>' signedness,
tl.extra.cuda. Random inputs, float64 references, poisoned outputs, ragged
sizes."""

import pytest
import torch

from conftest import real_compiler
from harness import poison_
import triton.language as tl
from txl_kernels_tcore import (atomic_float_minmax_kernel,
                               atomic_scalar_noret_kernel,
                               cas_item_lock_kernel, cuda_extra_kernel,
                               dot_kernel, dot_loop_kernel, shift_kernel,
                               reduce_keep_dims_3d_kernel,
                               split_scalar_kernel)

pytestmark = real_compiler

SEMS = ["acq_rel", "acquire", "release", "relaxed"]


@pytest.mark.parametrize("sem", SEMS)
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16,
                                   torch.float32, torch.float64, torch.int32,
                                   torch.int64])
@pytest.mark.parametrize("op", ["add", "max", "min"])
@pytest.mark.parametrize("programs", [1, 37, 61])
def test_scalar_atomic_without_result(op, dtype, sem, programs):
    if dtype in (torch.float16, torch.bfloat16) and op != "add":
        pytest.skip("16-bit floats have only atomic_add")
    # Integers in [-4, 4]: every partial sum of up to 61 of them is exact in
    # every type (|sum| <= 244 < 256, bf16's exact-integer range), so the
    # result does not depend on the order the programs ran in.
    x = torch.randint(-4, 5, (programs,), device="cuda").to(dtype)
    start = {"add": 0, "max": -100, "min": 100}[op]
    target = torch.full((1,), start, device="cuda", dtype=dtype)
    atomic_scalar_noret_kernel[(programs,)](target, x, OP=op, SEM=sem)
    xs = x.double().cpu()
    want = {"add": start + xs.sum(), "max": max(start, xs.max()),
            "min": min(start, xs.min())}[op]
    assert target.double().item() == float(want)


def operands(M, N, K, dtype, scale=1.0):
    a = (torch.randn(M, K, device="cuda", dtype=torch.float64) * scale)
    b = (torch.randn(K, N, device="cuda", dtype=torch.float64) * scale)
    return a.to(dtype), b.to(dtype)


def run_dot(a, b, c, out_dtype, torch_out, precision, block, num_warps):
    M, K = a.shape
    N = b.shape[1]
    BM, BN, BK = block
    out = poison_(torch.empty(M, N, device="cuda", dtype=torch_out))
    dot_kernel[(1,)](a, b, c if c is not None else out, out, M, N, K, BM=BM,
                     BN=BN, BK=BK, OUT=out_dtype, PRECISION=precision,
                     HAS_ACC=c is not None, num_warps=num_warps)
    return out


# (M, N, K) of the data, and the block that holds it: full tiles and ragged
# ones; 64-row blocks take wgmma on sm_90a, 16/32-row ones mma.sync.
SHAPES = [((16, 16, 16), (16, 16, 16)), ((32, 32, 32), (32, 32, 32)),
          ((64, 64, 64), (64, 64, 64)), ((50, 37, 29), (64, 64, 32)),
          ((128, 64, 32), (128, 64, 32)), ((100, 120, 64), (128, 128, 64))]


@pytest.mark.parametrize("num_warps", [4, 8])
@pytest.mark.parametrize("has_acc", [False, True])
@pytest.mark.parametrize("data,block", SHAPES)
def test_dot_fp16_out(data, block, has_acc, num_warps):
    """fp16 operands, out_dtype=fp16: accumulates in fp16 (mma/wgmma f16
    accumulators); the reference is float64."""
    M, N, K = data
    a, b = operands(M, N, K, torch.float16, 0.3)
    c = (torch.randn(M, N, device="cuda") * 0.5).half() if has_acc else None
    out = run_dot(a, b, c, tl.float16, torch.float16, "ieee", block, num_warps)
    ref = a.double() @ b.double() + (c.double() if has_acc else 0)
    # K roundings of fp16 partial sums (|sum| < 4): a few 1e-3 at most.
    torch.testing.assert_close(out.double(), ref, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("BM,BN,BK", [(64, 64, 32), (128, 128, 32),
                                      (32, 32, 16)])
def test_dot_fp16_accumulator_loop(BM, BN, BK):
    """A GEMM whose loop-carried accumulator is fp16 (wgmma waits on f16x2
    words); ragged M, N, K."""
    M, N, K = 200, 150, 136
    a, b = operands(M, N, K, torch.float16, 0.2)
    out = poison_(torch.empty(M, N, device="cuda", dtype=torch.float16))
    grid = (-(-M // BM), -(-N // BN))
    dot_loop_kernel[grid](a, b, out, M, N, K, BM=BM, BN=BN, BK=BK,
                          OUT=tl.float16, PRECISION="tf32")
    ref = a.double() @ b.double()
    torch.testing.assert_close(out.double(), ref, rtol=1e-2, atol=3e-2)


# Error bound relative to (|a| @ |b|), per precision: tf32 alone is ~1e-3,
# so each bound fails if the split (or FMA) silently degrades to one tf32 dot.
PRECISION_TOL = {"ieee": 1e-5, "tf32x3": 1e-5, "bf16x6": 1e-5,
                 "bf16x3": 6e-5, "tf32": 3e-3}


@pytest.mark.parametrize("precision", list(PRECISION_TOL))
@pytest.mark.parametrize("has_acc", [False, True])
@pytest.mark.parametrize("data,block", SHAPES)
def test_dot_fp32_precision(data, block, has_acc, precision):
    M, N, K = data
    a, b = operands(M, N, K, torch.float32)
    c = torch.randn(M, N, device="cuda") if has_acc else None
    out = run_dot(a, b, c, tl.float32, torch.float32, precision, block, 4)
    ref = a.double() @ b.double() + (c.double() if has_acc else 0)
    scale = a.double().abs() @ b.double().abs() + 1.0
    err = ((out.double() - ref).abs() / scale).max().item()
    assert err <= PRECISION_TOL[precision], (precision, err)


def test_dot_fp32_split_precision_is_tighter_than_tf32():
    """The split forms really are more precise than one tf32 dot."""
    M = N = K = 64
    a, b = operands(M, N, K, torch.float32)
    ref = a.double() @ b.double()
    scale = a.double().abs() @ b.double().abs()
    errs = {}
    for p in ("tf32", "tf32x3", "bf16x3", "bf16x6", "ieee"):
        out = run_dot(a, b, None, tl.float32, torch.float32, p, (M, N, K), 4)
        errs[p] = ((out.double() - ref).abs() / scale).max().item()
    for p in ("tf32x3", "bf16x3", "bf16x6", "ieee"):
        assert errs[p] * 8 < errs["tf32"], errs


@pytest.mark.parametrize("has_acc", [False, True])
@pytest.mark.parametrize("num_warps", [4, 8])
@pytest.mark.parametrize("data,block", SHAPES)
def test_dot_fp64(data, block, has_acc, num_warps):
    """fp64 operands: FMA dot in float64."""
    M, N, K = data
    a, b = operands(M, N, K, torch.float64)
    c = torch.randn(M, N, device="cuda", dtype=torch.float64) if has_acc else None
    out = run_dot(a, b, c, tl.float32, torch.float64, "ieee", block,
                  num_warps)
    ref = a @ b + (c if has_acc else 0)
    scale = a.abs() @ b.abs() + 1.0
    assert ((out - ref).abs() / scale).max().item() <= 1e-13


def test_dot_fp64_loop():
    M, N, K = 70, 90, 100
    a, b = operands(M, N, K, torch.float64)
    out = poison_(torch.empty(M, N, device="cuda", dtype=torch.float64))
    dot_loop_kernel[(3, 3)](a, b, out, M, N, K, BM=32, BN=32, BK=16,
                            OUT=tl.float64, PRECISION="ieee")
    ref = a @ b
    assert ((out - ref).abs() / (a.abs() @ b.abs())).max().item() <= 1e-13


@pytest.mark.parametrize("M,N", [(2, 4), (1, 16), (8, 8), (16, 2)])
@pytest.mark.parametrize("num_warps", [1, 4])
def test_dot_small_m_n(M, N, num_warps):
    """M or N below the instruction's 16 x 8: mma.sync on a padded tile."""
    K = 32
    a, b = operands(M, N, K, torch.float16, 0.5)
    out = run_dot(a, b, None, tl.float32, torch.float32, "ieee", (M, N, K),
                  num_warps)
    ref = a.double() @ b.double()
    torch.testing.assert_close(out.double(), ref, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("M,N", [(1, 2), (2, 4), (16, 16)])
@pytest.mark.parametrize("dtype", [torch.float8_e5m2, torch.float8_e4m3fn])
def test_dot_small_fp8(M, N, dtype):
    """fp8 operands of a dot that goes to mma.sync (Triton's small-dot case
    of test_dot: M=1, N=2, float8e5): widened to fp16 first, exactly, so
    the product matches the float64 one of the fp8 values."""
    K = 32
    a, b = operands(M, N, K, dtype, 2.0)
    out = run_dot(a, b, None, tl.float32, torch.float32, "ieee", (M, N, K),
                  1)
    ref = a.double() @ b.double()
    torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
@pytest.mark.parametrize("sem", ["acq_rel", "acquire"])
def test_cas_lock_with_item(dtype, sem):
    programs = 300
    data = torch.zeros(128, device="cuda")
    lock = torch.zeros(1, device="cuda", dtype=dtype)
    dt = tl.int32 if dtype == torch.int32 else tl.int64
    cas_item_lock_kernel[(programs,)](data, lock, DT=dt, SEM=sem)
    assert torch.equal(data.cpu(), torch.full((128,), float(programs)))
    assert lock.item() == 0


def test_split_to_scalars():
    x = torch.randn(2, device="cuda")
    lo = poison_(torch.empty(3, device="cuda"))
    hi = poison_(torch.empty(3, device="cuda"))
    split_scalar_kernel[(3,)](x, lo, hi)
    assert torch.equal(lo.cpu(), x[0].cpu().expand(3))
    assert torch.equal(hi.cpu(), x[1].cpu().expand(3))


INT_TYPES = [torch.int8, torch.int16, torch.int32, torch.int64]
UINT_TYPES = [torch.uint8, torch.uint16, torch.uint32, torch.uint64]
BITS = {8: 0, 16: 1, 32: 2, 64: 3}


def random_bits(n, dtype):
    """n random values of `dtype`, made as the signed type of its width and
    viewed (torch's unsigned types beyond uint8 have few operations)."""
    bits = torch.iinfo(dtype).bits
    signed = INT_TYPES[BITS[bits]]
    v = torch.randint(-2**(bits - 1), 2**(bits - 1) - 1, (n,),
                      dtype=torch.int64).to(signed)
    return v, v.view(dtype)


@pytest.mark.parametrize("tx", INT_TYPES + UINT_TYPES)
@pytest.mark.parametrize("ty", UINT_TYPES)
def test_right_shift_promotes(tx, ty):
    """x >> y in the operands' common type (a signed and an unsigned
    operand of equal width give the unsigned type), arithmetic when x is
    signed, as Triton's tensor.__rshift__ chooses."""
    n = 1000
    bx, by = torch.iinfo(tx).bits, torch.iinfo(ty).bits
    bits = max(bx, by)
    xs, x = random_bits(n, tx)
    y_signed = torch.randint(0, bits, (n,), dtype=torch.int64).to(
        INT_TYPES[BITS[by]])
    y = y_signed.view(ty)
    signed = tx.is_signed and bx > by
    out_signed = INT_TYPES[BITS[bits]]
    out_t = out_signed if signed else UINT_TYPES[BITS[bits]]
    out = torch.full((n,), -1, device="cuda", dtype=out_signed).view(out_t)
    shift_kernel[(4,)](x.cuda(), y.cuda(), out, n, BLOCK=256)
    mask = (1 << bits) - 1
    got = out.view(out_signed).cpu().tolist()
    for xi, yi, oi in zip(xs.tolist(), y_signed.tolist(), got):
        # Widening: a signed x sign-extends, an unsigned one zero-extends.
        wide = xi if tx.is_signed else xi & ((1 << bx) - 1)
        want = wide >> yi if tx.is_signed else (wide & mask) >> yi
        assert (oi & mask) == (want & mask), (xi, yi, oi, want)


@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_cuda_num_threads_and_smid(num_warps):
    programs = 64
    n = num_warps * 32
    out = poison_(torch.empty(programs * n, device="cuda", dtype=torch.int32))
    sm = poison_(torch.empty(programs, device="cuda", dtype=torch.int32))
    cuda_extra_kernel[(programs,)](out, sm, num_warps=num_warps)
    want = torch.arange(1, n + 1, dtype=torch.int32).repeat(programs)
    assert torch.equal(out.cpu(), want)
    count = torch.cuda.get_device_properties(0).multi_processor_count
    assert sm.min().item() >= 0 and sm.max().item() < count


def test_reduce_keep_dims_3d_scalar_pointer():
    """A [1, 1, 1] result stored through a scalar pointer indexed
    [None, None, None, :]; a number's .dtype is the int32 it becomes."""
    x = torch.randint(-8, 8, (4, 8, 16), device="cuda", dtype=torch.int32)
    z = poison_(torch.empty(1, device="cuda", dtype=torch.int32))
    reduce_keep_dims_3d_kernel[(1,)](x, z, BM=4, BN=8, BK=16)
    assert z.item() == x.sum().item() + 32


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("slots", [1, 7])
def test_atomic_float_max_min_signed_zeros(dtype, slots):
    """Float atomic max/min order -0.0 below +0.0 and above every negative
    (the sign bit picks the integer atomic, not `x >= 0`)."""
    programs = 200
    x = torch.randn(programs, device="cuda", dtype=dtype)
    x[::3] = -0.0
    x[1::5] = 0.0
    big = torch.finfo(dtype).max
    hi = torch.full((slots,), -big, device="cuda", dtype=dtype)
    lo = torch.full((slots,), big, device="cuda", dtype=dtype)
    atomic_float_minmax_kernel[(programs,)](x, hi, lo, SLOTS=slots)
    for s in range(slots):
        vals = x[s::slots].cpu()
        assert hi[s].item() == vals.max().item()
        assert lo[s].item() == vals.min().item()
        # Signs of zero results too: max of {-0.0, negatives} is -0.0.
        assert torch.signbit(hi[s]).item() == torch.signbit(vals.max()).item()
    neg = torch.full((1,), -0.0, device="cuda", dtype=dtype)
    hi1 = torch.full((1,), -big, device="cuda", dtype=dtype)
    lo1 = torch.full((1,), big, device="cuda", dtype=dtype)
    atomic_float_minmax_kernel[(1,)](neg, hi1, lo1, SLOTS=1)
    assert torch.signbit(hi1).item() and torch.signbit(lo1).item()
