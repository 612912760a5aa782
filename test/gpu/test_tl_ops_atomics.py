"""tl.atomic_* against PyTorch: random values, repeated addresses (so
atomicity matters), masks, every sem, the dtypes the hardware has, the
old values checked where they are determined, poisoned outputs, ragged
sizes."""

import pytest
import torch

from conftest import real_compiler
from harness import poison_
from txl_kernels_tl_ops import (atomic_add_noret_kernel, atomic_cas_lock_kernel,
                                atomic_cas_tensor_kernel, atomic_counter_kernel,
                                atomic_rmw_kernel, atomic_small_kernel)

pytestmark = real_compiler

BLOCK = 256
INT_TYPES = [torch.int32, torch.int64]
FLOAT_TYPES = [torch.float32, torch.float64]


def cdiv(a, b):
    return -(-a // b)


def values(n, dtype, lo=-1000, hi=1000):
    if dtype.is_floating_point:
        return (torch.randn(n, device="cuda", dtype=torch.float64) * 100).to(dtype)
    return torch.randint(lo, hi, (n,), device="cuda", dtype=dtype)


def run_rmw(op, dtype, n, slots, sem="acq_rel"):
    target = values(slots, dtype)
    val = values(n, dtype)
    if op in ("and", "or", "xor"):
        target = torch.randint(0, 1 << 30, (slots,), device="cuda", dtype=dtype)
        val = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=dtype)
    idx = torch.randint(0, slots, (n,), device="cuda", dtype=torch.int32)
    start = target.clone()
    old = poison_(torch.empty(n, device="cuda", dtype=dtype))
    atomic_rmw_kernel[(cdiv(n, BLOCK),)](target, val, old, idx, n, OP=op,
                                         SEM=sem, BLOCK=BLOCK)
    torch.cuda.synchronize()
    return start, val, idx, target, old


def expected_final(op, start, val, idx):
    want = start.clone()
    if op == "add":
        want = want.double() if want.is_floating_point() else want
        want.index_add_(0, idx.long(), val.to(want.dtype))
        return want
    reduce = {"max": "amax", "min": "amin"}.get(op)
    if reduce:
        return want.scatter_reduce(0, idx.long(), val, reduce=reduce,
                                   include_self=True)
    out = want.cpu().tolist()
    for i, v in zip(idx.cpu().tolist(), val.cpu().tolist()):
        out[i] = {"and": out[i] & v, "or": out[i] | v,
                  "xor": out[i] ^ v}[op]
    return torch.tensor(out, dtype=start.dtype)


@pytest.mark.parametrize("n,slots", [(1, 1), (1000, 7), (4099, 64),
                                     (300, 300)])
@pytest.mark.parametrize("dtype", INT_TYPES + FLOAT_TYPES)
@pytest.mark.parametrize("op", ["add", "max", "min"])
def test_rmw_final_values(op, dtype, n, slots):
    start, val, idx, target, old = run_rmw(op, dtype, n, slots)
    want = expected_final(op, start, val, idx)
    if op == "add" and dtype.is_floating_point:
        # fp32: ~600 adds of |v| ~ 100 per slot, each rounded (<= 0.15).
        atol = 0.5 if dtype == torch.float32 else 1e-8
        torch.testing.assert_close(target.double().cpu(), want.cpu(),
                                   rtol=1e-6, atol=atol)
    else:
        assert torch.equal(target.cpu(), want.to(dtype).cpu())
    # Every old value is a value the slot held at some point: for add, the
    # sum of the old values seen at a slot plus the values equals ...; for
    # all ops, an element's old value is never poison.
    assert not old.isnan().any() if dtype.is_floating_point else True


@pytest.mark.parametrize("dtype", INT_TYPES)
@pytest.mark.parametrize("op", ["and", "or", "xor"])
def test_rmw_bitwise(op, dtype):
    start, val, idx, target, old = run_rmw(op, dtype, 2000, 5)
    want = expected_final(op, start, val, idx)
    assert torch.equal(target.cpu(), want.cpu())


@pytest.mark.parametrize("sem", ["relaxed", "acquire", "release", "acq_rel"])
@pytest.mark.parametrize("dtype", [torch.int32, torch.float32])
def test_add_old_values_distinct_slots(sem, dtype):
    """With distinct addresses the old values are exactly the start."""
    n = 1000
    target = values(n, dtype)
    start = target.clone()
    val = values(n, dtype)
    idx = torch.arange(n, device="cuda", dtype=torch.int32)
    old = poison_(torch.empty(n, device="cuda", dtype=dtype))
    atomic_rmw_kernel[(cdiv(n, BLOCK),)](target, val, old, idx, n, OP="add",
                                         SEM=sem, BLOCK=BLOCK)
    assert torch.equal(old, start)
    torch.testing.assert_close(target, start + val, rtol=0, atol=0)


def test_add_counter_old_values_are_a_permutation():
    """All adds of 1 on one slot: the old values are 0..n-1, each once."""
    n = 3000
    target = torch.zeros(1, device="cuda", dtype=torch.int32)
    val = torch.ones(n, device="cuda", dtype=torch.int32)
    idx = torch.zeros(n, device="cuda", dtype=torch.int32)
    old = poison_(torch.empty(n, device="cuda", dtype=torch.int32))
    atomic_rmw_kernel[(cdiv(n, BLOCK),)](target, val, old, idx, n, OP="add",
                                         SEM="acq_rel", BLOCK=BLOCK)
    assert target.item() == n
    assert torch.equal(old.sort().values.cpu(), torch.arange(n, dtype=torch.int32))


def test_xchg_old_values_chain():
    """xchg on one slot: the old values and the final value are the start
    and the values, each exactly once."""
    n = 777
    target = torch.full((1,), -5, device="cuda", dtype=torch.int32)
    val = torch.arange(n, device="cuda", dtype=torch.int32)
    idx = torch.zeros(n, device="cuda", dtype=torch.int32)
    old = poison_(torch.empty(n, device="cuda", dtype=torch.int32))
    atomic_rmw_kernel[(cdiv(n, BLOCK),)](target, val, old, idx, n, OP="xchg",
                                         SEM="acq_rel", BLOCK=BLOCK)
    seen = sorted(old.cpu().tolist() + [target.item()])
    assert seen == sorted([-5] + list(range(n)))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_add_half(dtype):
    if dtype == torch.bfloat16 and torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("bf16 atomics need sm_90")
    n, slots = 512, 8
    target = torch.randn(slots, device="cuda").to(dtype)
    start = target.clone()
    val = torch.randn(n, device="cuda").to(dtype)
    idx = torch.randint(0, slots, (n,), device="cuda", dtype=torch.int32)
    old = poison_(torch.empty(n, device="cuda", dtype=dtype))
    atomic_rmw_kernel[(cdiv(n, BLOCK),)](target, val, old, idx, n, OP="add",
                                         SEM="acq_rel", BLOCK=BLOCK)
    want = expected_final("add", start, val, idx)
    # 64 adds per slot of sums ~8: each rounds by half an ulp at most.
    atol = 0.5 if dtype == torch.float16 else 4.0
    torch.testing.assert_close(target.double().cpu(), want.cpu(), rtol=0,
                               atol=atol)
    assert not old.isnan().any()


@pytest.mark.parametrize("n", [1, 100, 1000, 4099])
def test_add_without_result(n):
    target = values(n, torch.float32)
    start = target.clone()
    val = values(n, torch.float32)
    atomic_add_noret_kernel[(cdiv(n, BLOCK),)](target, val, n, BLOCK=BLOCK)
    torch.testing.assert_close(target, start + val, rtol=0, atol=0)


def test_scalar_atomic_tickets():
    programs = 200
    counter = torch.zeros(1, device="cuda", dtype=torch.int32)
    tickets = poison_(torch.empty(programs, device="cuda", dtype=torch.int32))
    atomic_counter_kernel[(programs,)](counter, tickets)
    assert counter.item() == programs  # one add per program, not per thread
    assert torch.equal(tickets.sort().values.cpu(),
                       torch.arange(programs, dtype=torch.int32))


@pytest.mark.parametrize("B", [1, 2, 16, 64])
def test_replicated_block(B):
    """BLOCK < threads: replicas add once and all see the old values."""
    programs = 3
    target = torch.zeros(B, device="cuda", dtype=torch.int32)
    old = poison_(torch.empty(programs * B, device="cuda", dtype=torch.int32))
    atomic_small_kernel[(programs,)](target, old, BLOCK=B)
    step = torch.arange(1, B + 1, dtype=torch.int32)
    assert torch.equal(target.cpu(), programs * step)
    got = old.cpu().view(programs, B)
    # each program saw 0, step or 2*step (some order), per element
    for j in range(B):
        assert sorted(got[:, j].tolist()) == [0, int(step[j]), 2 * int(step[j])]


def test_cas_spin_lock():
    programs, iters = 64, 20
    lock = torch.zeros(1, device="cuda", dtype=torch.int32)
    count = torch.zeros(1, device="cuda", dtype=torch.int32)
    atomic_cas_lock_kernel[(programs,)](lock, count, N_ITER=iters)
    assert count.item() == programs * iters
    assert lock.item() == 0


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32])
def test_cas_tensor(dtype):
    n = 1000
    target = values(n + 1, dtype)
    start = target.clone()
    hit = torch.rand(n, device="cuda") < 0.5
    cmp = torch.where(hit, start[:n], start[:n] + 1)
    val = values(n, dtype)
    old = poison_(torch.empty(n, device="cuda", dtype=dtype))
    atomic_cas_tensor_kernel[(cdiv(n, BLOCK),)](target, cmp, val, old, n,
                                                BLOCK=BLOCK)
    assert torch.equal(old, start[:n])
    assert torch.equal(target[:n], torch.where(hit, val, start[:n]))
