"""Triton front-end behaviours (Triton's test_core.py, issue 13) on the GPU:
early returns, runtime conditional expressions with effects, tl.where on
pointers, map_elementwise branching on elements, tl.const pointers, and a
load after a store to the same addresses."""

import itertools

import pytest
import torch

import txl_kernels_front_end as k
from conftest import real_compiler

pytestmark = real_compiler


def i32(*values):
    return torch.tensor(values, dtype=torch.int32, device="cuda")


@pytest.mark.parametrize("early", [0, 1])
def test_exit_early(early):
    out = i32(-7)
    k.exit_early[(1,)](i32(early), out)
    torch.cuda.synchronize()
    assert out.item() == (0 if early else 1)


@pytest.mark.parametrize("c1,c2,c3", itertools.product([0, 1], repeat=3))
def test_nested_return(c1, c2, c3):
    out = i32(-1)
    k.nested_return[(1,)](i32(c1), i32(c2), i32(c3), i32(1), i32(2), i32(3),
                          out)
    torch.cuda.synchronize()
    want = (1 if c2 else -1) if c1 else (2 if c3 else 3)
    assert out.item() == want


def test_semaphore_return():
    sem, out = i32(0), i32(-5)
    k.semaphore_return[(1,)](sem, out, 1)
    torch.cuda.synchronize()
    assert out.item() == 0
    sem, out = i32(0), i32(-1)
    k.semaphore_return[(4,)](sem, out, 4)
    torch.cuda.synchronize()
    # Only the last program to arrive stores (pid + 3).
    assert sem.item() == 4 and 3 <= out.item() <= 6


def test_helper_return():
    out = i32(*([1] * 8))
    k.helper_return[(8,)](out)
    torch.cuda.synchronize()
    assert out.tolist() == [2] + [3] * 7


def test_ternary_stores_once():
    xt = torch.tensor([3.5], device="cuda")
    xf = torch.tensor([1.25], device="cuda")
    ret = torch.full((6,), float("nan"), device="cuda")
    k.ternary_store[(6,)](xt, xf, ret)
    torch.cuda.synchronize()
    assert ret.tolist() == [3.5, 1.25] * 3


@pytest.mark.parametrize("n", [1000, 77])
def test_where_pointers(n):
    gen = torch.Generator(device="cuda").manual_seed(n)
    a = torch.randint(-50, 50, (1024,), device="cuda", generator=gen,
                      dtype=torch.int32)
    b = torch.randint(-50, 50, (1024,), device="cuda", generator=gen,
                      dtype=torch.int32)
    cond = (torch.rand(1024, device="cuda", generator=gen) > 0.5).to(
        torch.int32)
    out = torch.full((1024,), -999, device="cuda", dtype=torch.int32)
    step = torch.arange(1024, device="cuda", dtype=torch.int64) * 4
    aptrs, bptrs = a.data_ptr() + step, b.data_ptr() + step
    k.where_pointers[(1,)](cond, aptrs, bptrs, a, b, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    scalar = a if cond[0].item() else b
    want = torch.where(cond != 0, a, b) * 10 + scalar
    assert torch.equal(out[:n], want[:n])
    assert (out[n:] == -999).all()


def test_map_elementwise_branches():
    gen = torch.Generator(device="cuda").manual_seed(17)
    x = torch.randint(-4, 4, (128,), device="cuda", generator=gen,
                      dtype=torch.int32)
    y = torch.randint(-4, 4, (128,), device="cuda", generator=gen,
                      dtype=torch.int32)
    z = torch.full((128,), 99, device="cuda", dtype=torch.int32)
    k.map_compare[(1,)](x, y, z, BLOCK=128)
    torch.cuda.synchronize()
    want = (x > y).int() - (y > x).int()
    assert torch.equal(z, want)


@pytest.mark.parametrize("n", [128, 100])
def test_const_pointer(n):
    x = torch.randn(128, device="cuda")
    y = torch.full((128,), float("nan"), device="cuda")
    k.copy_from_const[(1,)](x, y, n, BLOCK=128)
    torch.cuda.synchronize()
    assert torch.equal(y[:n], x[:n]) and torch.isnan(y[n:]).all()


def test_load_after_store():
    # Triton's test_call: each call loads what the previous one stored.
    gen = torch.Generator(device="cuda").manual_seed(3)
    x = torch.randn(1000, device="cuda", generator=gen)
    want = x * 3.0 * 5.0
    k.scale_twice[(8,)](x, 1000, 3.0, 5.0)
    torch.cuda.synchronize()
    torch.testing.assert_close(x, want, rtol=1e-6, atol=0)


@pytest.mark.parametrize("lo,hi,iv", [(2**35, 2**35 + 20, 1),
                                      (2**35, 2**35 + 20, 3),
                                      (15, -16, -1), (15, -16, -3),
                                      (-18, -22, -1), (22, 18, -1)])
def test_for_iv(lo, hi, iv):
    out = torch.zeros(1, dtype=torch.int64, device="cuda")
    k.for_iv[(1,)](out, lo, hi, iv)
    torch.cuda.synchronize()
    assert out.item() == sum(range(lo, hi, iv))
