"""Tensor descriptors of rank 3, 4 and 5 on the GPU (and rank 2 beside
them): host descriptors (txl.TensorDescriptor) and descriptors made in the
kernel (tl.make_tensor_descriptor), desc.load / desc.store of every block
of a ragged tensor (edge blocks read zeros past the tensor and their stores
are clipped by TMA), fp16 / fp32 / int8, with rows of 16 to 256 bytes (no
swizzle, 32/64/128-byte swizzles, rows of two swizzle spans, whose leading
dimensions then go box by box) and a dimension over TMA's 256-element box.
Each tensor is a strided window inside a poisoned larger one whose frame
must stay poisoned -- except, where the window's rows end inside a 16-byte
unit, the rest of that unit: TMA stores write whole 16-byte units of global
memory (Triton issue 11583; docs/hopper-layer.md), which is what session 10
saw as rank 3-5 stores "writing outside the tensor" (every failing case had
such rows, of every rank). Also a bit-exact load -> store round trip, the
explicit txl.tma_load / tma_store of a 3-D buffer, Triton's test_trans_4d
(a 4-D block permuted into a 1-D block of several boxes) and the zero fill
of a partly outside block (exact to the element, also mid-unit).

    TXL_LIBRARY=build/lib/libtxl.so python3 -m pytest test/gpu/test_tensor_desc_nd.py -q
"""

import itertools
import math
import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "test", "gpu"))
pytest.importorskip("triton")  # the kernels import triton.language

import triton.language as tl  # noqa: E402
import txl  # noqa: E402
import txl_kernels_desc_nd as kernels  # noqa: E402

TL_DTYPES = {torch.float16: tl.float16, torch.float32: tl.float32,
             torch.int8: tl.int8}

INT8_POISON = 77  # outside the kernels' results (2x + 1 of x in [-4, 4))


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("TMA needs sm_90")


def poisoned_window(shape, dtype, poison=None):
    """(big, view, index): `view` of `shape` inside `big`, one element in
    from each leading edge and 16 bytes in along the last dimension, whose
    extent is padded so every stride is a multiple of 16 bytes and the
    view starts 16-byte aligned (what TMA needs). The frame holds
    `poison` (NaN for floats, INT8_POISON for integers by default)."""
    per16 = 16 // torch.empty((), dtype=dtype).element_size()
    inner = -(-shape[-1] // per16) * per16 + 2 * per16
    big_shape = [d + 2 for d in shape[:-1]] + [inner]
    if poison is None:
        poison = float("nan") if dtype.is_floating_point else INT8_POISON
    big = torch.full(big_shape, poison, device="cuda", dtype=dtype)
    index = tuple(slice(1, 1 + d) for d in shape[:-1]) + (
        slice(per16, per16 + shape[-1]),)
    return big, big[index], index


def row_tails(index, shape, dtype):
    """The index of the rest of the 16-byte unit each window row ends in
    (empty when rows end on a unit): what a TMA store may also write."""
    per16 = 16 // torch.empty((), dtype=dtype).element_size()
    end = index[-1].stop
    return index[:-1] + (slice(end, -(-end // per16) * per16),)


def is_poison(t):
    if t.dtype.is_floating_point:
        return torch.isnan(t)
    return t == INT8_POISON


def assert_frame_untouched(big, index, shape):
    """Nothing outside the window was written but the rows' 16-byte tails;
    those hold poison or what the block held there (the load's zero fill,
    through the kernel's function)."""
    frame = torch.ones_like(big, dtype=torch.bool)
    frame[index] = False
    tails = row_tails(index, shape, big.dtype)
    frame[tails] = False
    hit = frame & ~is_poison(big)
    bad = hit.sum().item()
    where = hit.nonzero()[:6].tolist()
    assert bad == 0, (f"{bad} stores landed outside the tensor, e.g. at "
                      f"{where} of {list(big.shape)} (window {index})")
    tail = big[tails]
    allowed = is_poison(tail) | (tail == 0) | (tail == 1)
    assert allowed.all(), "a row's 16-byte tail holds a foreign value"


def tail_writes(big, index, shape):
    """How many elements of the rows' 16-byte tails a store overwrote."""
    return (~is_poison(big[row_tails(index, shape, big.dtype)])).sum().item()


def reference(x):
    if x.dtype.is_floating_point:
        return (x.double() * 2 + 1).to(x.dtype)
    return (x.int() * 2 + 1).to(x.dtype)  # wraps like the kernel's int8


def assert_matches(out, x):
    want = reference(x)
    if x.dtype.is_floating_point:
        torch.testing.assert_close(out, want, rtol=1e-2, atol=1e-2)
    else:
        assert torch.equal(out, want)


def blocks_per_dim(shape, block):
    return [-(-s // b) for s, b in zip(shape, block)]


# (dtype, shape, block): ragged shapes; rows of 16 (no swizzle), 32, 64,
# 128 and 256 bytes (two spans: boxes one span wide, one per leading index)
# and a leading dimension over 256 (two boxes along it). Most rows end
# inside a 16-byte unit (70 fp32, 37 fp16, ...); some on one (40 fp16).
CASES = {
    2: [(torch.float32, (37, 70), (8, 64)),
        (torch.float16, (20, 40), (16, 64)),
        (torch.float16, (600, 20), (512, 16))],
    3: [(torch.float16, (5, 37, 100), (2, 16, 64)),
        (torch.float32, (3, 20, 70), (2, 8, 64)),
        (torch.int8, (4, 9, 50), (4, 8, 32)),
        (torch.float32, (3, 10, 6), (2, 8, 4)),
        (torch.float16, (2, 600, 20), (1, 512, 16)),
        (torch.float16, (3, 10, 40), (2, 8, 64))],
    4: [(torch.float16, (3, 3, 10, 40), (2, 2, 8, 32)),
        (torch.float32, (2, 3, 9, 70), (1, 2, 8, 64)),
        (torch.int8, (3, 2, 7, 130), (2, 2, 4, 128)),
        (torch.float32, (2, 3, 5, 7), (2, 2, 4, 4))],
    5: [(torch.float16, (2, 3, 2, 9, 70), (2, 2, 2, 8, 64)),
        (torch.float32, (2, 2, 3, 5, 40), (1, 2, 2, 4, 32)),
        (torch.int8, (3, 2, 2, 5, 33), (2, 2, 2, 4, 16)),
        (torch.float32, (2, 2, 2, 9, 70), (2, 2, 2, 8, 64))],
}
ALL = [(rank, *case) for rank, cases in CASES.items() for case in cases]
ND = [c for c in ALL if c[0] >= 3]


def case_id(c):
    rank, dtype, shape, block = c
    return (f"{rank}d-{str(dtype).replace('torch.', '')}-"
            f"{'x'.join(map(str, shape))}-b{'x'.join(map(str, block))}")


HOST = {2: kernels.host_affine_2d, 3: kernels.host_affine_3d,
        4: kernels.host_affine_4d, 5: kernels.host_affine_5d}
MADE = {2: kernels.made_affine_2d, 3: kernels.made_affine_3d,
        4: kernels.made_affine_4d, 5: kernels.made_affine_5d}


def run_host(case, affine):
    """x (random, a padded window: TMA strides are multiples of 16 bytes)
    through host descriptors into a poisoned window y."""
    rank, dtype, shape, block = case
    _, x, _ = poisoned_window(shape, dtype)
    x.copy_(random_tensor(shape, dtype))
    big, y, index = poisoned_window(shape, dtype)
    xd = txl.TensorDescriptor(x, list(x.shape), list(x.stride()), block)
    yd = txl.TensorDescriptor(y, list(y.shape), list(y.stride()), block)
    nb = blocks_per_dim(shape, block)
    HOST[rank][(math.prod(nb),)](xd, yd, *nb[1:], AFFINE=affine,
                                 num_warps=4)
    torch.cuda.synchronize()
    return x, y, big, index


@pytest.mark.parametrize("case", ALL, ids=case_id)
def test_host_descriptor(case):
    x, y, big, index = run_host(case, True)
    assert_matches(y, x)
    assert_frame_untouched(big, index, case[2])


@pytest.mark.parametrize("case", ND, ids=case_id)
def test_host_round_trip(case):
    """desc.load -> desc.store unchanged: bit-exact."""
    x, y, big, index = run_host(case, False)
    assert torch.equal(y, x)
    assert_frame_untouched(big, index, case[2])


TAILED = [c for c in ALL if case_id(c) in (
    "2d-float32-37x70-b8x64", "3d-float32-3x20x70-b2x8x64",
    "5d-int8-3x2x2x5x33-b2x2x2x4x16")]


@pytest.mark.parametrize("case", TAILED, ids=case_id)
def test_store_writes_row_tails(case):
    """What the hardware does, of every rank alike: a TMA store of a box
    crossing the end of a row also writes the rest of the 16-byte unit the
    row ends in (here every row's tail, from the load's zero fill: 1 after
    2 * x + 1). docs/hopper-layer.md says so; this fails if it stops."""
    rank, dtype, shape, block = case
    x, y, big, index = run_host(case, True)
    tails = big[row_tails(index, shape, dtype)]
    written = tail_writes(big, index, shape)
    print(f"{case_id(case)}: {written} of {tails.numel()} tail elements "
          "written")
    assert tails.numel() > 0 and written == tails.numel()
    assert (tails == 1).all()


@pytest.mark.parametrize("case", ALL, ids=case_id)
def test_made_descriptor(case):
    rank, dtype, shape, block = case
    # The source is a strided window too (its strides are not its shape's).
    _, x, _ = poisoned_window(shape, dtype)
    x.copy_(random_tensor(shape, dtype))
    big, y, index = poisoned_window(shape, dtype)
    nb = blocks_per_dim(shape, block)
    MADE[rank][(math.prod(nb),)](x, y, *shape, *x.stride()[:-1],
                                 *y.stride()[:-1], *nb[1:], *block,
                                 num_warps=4)
    torch.cuda.synchronize()
    assert_matches(y, x)
    assert_frame_untouched(big, index, case[2])


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.int8],
                         ids=["fp16", "fp32", "int8"])
def test_tma_store_3d(dtype):
    """txl.tma_load of a 3-D block into a 3-D shared buffer and
    txl.tma_store of it, over a ragged tensor (bit-exact)."""
    shape, block = (3, 20, 70), (2, 8, 64)
    _, x, _ = poisoned_window(shape, dtype)
    x.copy_(random_tensor(shape, dtype))
    big, y, index = poisoned_window(shape, dtype)
    xd = txl.TensorDescriptor(x, list(x.shape), list(x.stride()), block)
    yd = txl.TensorDescriptor(y, list(y.shape), list(y.stride()), block)
    nb = blocks_per_dim(shape, block)
    kernels.tma_copy_3d[(math.prod(nb),)](
        xd, yd, *nb[1:], *block, DT=TL_DTYPES[dtype],
        ELEM=x.element_size(), num_warps=4)
    torch.cuda.synchronize()
    assert torch.equal(y, x)
    assert_frame_untouched(big, index, shape)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.int8],
                         ids=["fp16", "fp32", "int8"])
@pytest.mark.parametrize("shape", [(3, 10, 40), (3, 10, 37)],
                         ids=["3x10x40", "3x10x37"])
def test_load_zero_fill(dtype, shape):
    """A block reaching past the tensor in every dimension: desc.load reads
    the inside and zeros for the rest, to the element (the source is a
    window whose frame holds a finite poison, also in the 16-byte unit
    its rows end in)."""
    block, at = (2, 8, 64), (2, 6, 0)
    _, x, _ = poisoned_window(shape, dtype, poison=55)
    x.copy_(random_tensor(shape, dtype))
    if not dtype.is_floating_point:
        x[x == 0] = 1  # a zero inside would pass for fill
    else:
        x[x == 0] = 0.5
    xd = txl.TensorDescriptor(x, list(x.shape), list(x.stride()), block)
    out = torch.full(block, 99, device="cuda", dtype=dtype)
    kernels.load_block_3d[(1,)](xd, out, *at, *block, num_warps=4)
    torch.cuda.synchronize()
    want = torch.zeros(block, device="cuda", dtype=dtype)
    inside = tuple(slice(0, min(b, s - a)) for a, b, s in zip(at, block, shape))
    want[inside] = x[tuple(slice(a, a + (i.stop - i.start))
                           for a, i in zip(at, inside))]
    assert torch.equal(out, want)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int8],
                         ids=["int32", "int8"])
@pytest.mark.parametrize("shape", [(2, 2, 8, 64), (4, 4, 4, 16)],
                         ids=["2x2x8x64", "4x4x4x16"])
@pytest.mark.parametrize("perm", list(itertools.permutations(range(4))),
                         ids=lambda p: "".join(map(str, p)))
def test_trans_4d(dtype, shape, perm):
    x = torch.randint(-100, 100, shape, dtype=dtype, device="cuda")
    want = x.permute(perm).contiguous()
    out = torch.full(want.shape, 99, dtype=dtype, device="cuda")
    kernels.trans_4d[(1,)](x, out, *shape, *perm, num_warps=8)
    torch.cuda.synchronize()
    assert torch.equal(out, want)
