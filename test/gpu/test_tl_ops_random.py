"""tl.randint/randint4x/rand/randn: the same Philox streams as Triton for
the same seed and offsets. The reference is an independent host Philox
(Python integers, so no overflow games), then Triton's conversions to
floats. Outputs are poisoned, sizes ragged, several seeds (one above 2^32
so both key words matter, one negative)."""

import math

import pytest
import torch

from conftest import real_compiler
from harness import poison_
from txl_kernels_tl_ops import (rand_2d_kernel, rand_kernel, randint4x_kernel,
                                randint64_kernel, randint_kernel)

pytestmark = real_compiler

SEEDS = [0, 1, 12345, -7, (1 << 33) + 17]
SIZES = [1, 100, 1000, 4099]

# Philox multipliers and Weyl key increments (Salmon et al. 2011).
M32 = (0xD2511F53, 0xCD9E8D57)
W32 = (0x9E3779B9, 0xBB67AE85)
M64 = (0xD2E7470EE14C6C93, 0xCA5A826395121157)
W64 = (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B)


def philox(counter, key, bits, rounds=10):
    """Philox-4xbits on one counter (4 words) and key (2 words)."""
    mask = (1 << bits) - 1
    (ma, mb), (wa, wb) = (M32, W32) if bits == 32 else (M64, W64)
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(rounds):
        p0, p2 = ma * c0, mb * c2
        c0, c1, c2, c3 = ((p2 >> bits) ^ c1 ^ k0, p2 & mask,
                          (p0 >> bits) ^ c3 ^ k1, p0 & mask)
        k0, k1 = (k0 + wa) & mask, (k1 + wb) & mask
    return c0, c1, c2, c3


def reference_words(seed, offsets, bits=32, rounds=10):
    """Triton's keying: seed -> (low, high) words for 32-bit counters, the
    whole seed and 0 for 64-bit ones; counter = (offset, 0, 0, 0)."""
    seed64 = seed & ((1 << 64) - 1)
    if bits == 32:
        key = (seed64 & 0xFFFFFFFF, seed64 >> 32)
    else:
        key = (seed64, 0)
    mask = (1 << bits) - 1
    return [philox((o & mask, 0, 0, 0), key, bits, rounds) for o in offsets]


def as_signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def uniform(words_i32):
    """Triton's uint_to_uniform_float on int32 values, in fp32."""
    x = words_i32.to(torch.int64)
    x = torch.where(x < 0, -x - 1, x)
    return x.to(torch.float32) * torch.tensor(4.6566127342e-10,
                                              dtype=torch.float32)


def seed_arg(seed):
    return seed


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_randint(seed, n):
    out = poison_(torch.empty(n, dtype=torch.int32, device="cuda"))
    BLOCK = 1024
    randint_kernel[(triton_cdiv(n, BLOCK),)](out, seed_arg(seed), n,
                                             BLOCK=BLOCK)
    want = [as_signed(w[0], 32) for w in reference_words(seed, range(n))]
    assert out.cpu().tolist() == want


@pytest.mark.parametrize("rounds", [1, 7, 10])
@pytest.mark.parametrize("seed", [3, (1 << 40) + 5])
def test_randint4x(seed, rounds):
    n = 777
    outs = [poison_(torch.empty(n, dtype=torch.int32, device="cuda"))
            for _ in range(4)]
    randint4x_kernel[(triton_cdiv(n, 256),)](*outs, seed, n, N_ROUNDS=rounds,
                                            BLOCK=256)
    want = reference_words(seed, range(n), rounds=rounds)
    for k in range(4):
        assert outs[k].cpu().tolist() == [as_signed(w[k], 32) for w in want]


@pytest.mark.parametrize("seed", [9, (1 << 50) + 1])
def test_randint_64bit_offsets(seed):
    n = 300
    out = poison_(torch.empty(n, dtype=torch.int64, device="cuda"))
    randint64_kernel[(triton_cdiv(n, 256),)](out, seed, n, BLOCK=256)
    want = [as_signed(w[0], 64) for w in reference_words(seed, range(n), 64)]
    assert out.cpu().tolist() == want


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_rand_randn(seed, n):
    u = poison_(torch.empty(n, dtype=torch.float32, device="cuda"))
    z = poison_(torch.empty(n, dtype=torch.float32, device="cuda"))
    BLOCK = 512
    rand_kernel[(triton_cdiv(n, BLOCK),)](u, z, seed, n, BLOCK=BLOCK)
    words = reference_words(seed, range(n))
    w0 = torch.tensor([as_signed(w[0], 32) for w in words], dtype=torch.int32)
    w1 = torch.tensor([as_signed(w[1], 32) for w in words], dtype=torch.int32)
    u0 = uniform(w0)
    # rand: exact (an int -> fp32 conversion and one fp32 multiply).
    torch.testing.assert_close(u.cpu(), u0, atol=0, rtol=0)
    assert bool(((u >= 0) & (u < 1)).all())
    # randn: Box-Muller in float64 from the same fp32 uniforms; the kernel's
    # fp32 log/sin/cos are approximations.
    u1 = torch.clamp(u0, min=1.0e-7).double()
    th = 6.283185307179586 * uniform(w1).double()
    want = torch.sqrt(-2.0 * torch.log(u1)) * torch.cos(th)
    torch.testing.assert_close(z.cpu().double(), want, atol=2e-3, rtol=1e-3)


@pytest.mark.parametrize("M,N", [(1, 1), (37, 50), (64, 64), (100, 3)])
def test_rand_2d_offsets(M, N):
    seed, stride = 4242, 97
    u = poison_(torch.full((M * stride,), float("nan"), device="cuda"))
    rand_2d_kernel[(triton_cdiv(M, 32),)](u, seed, M, N, stride, BM=32,
                                          BN=64)
    got = u.cpu().view(M, stride)[:, :N]
    offs = [r * stride + c for r in range(M) for c in range(N)]
    w0 = torch.tensor([as_signed(w[0], 32)
                       for w in reference_words(seed, offs)],
                      dtype=torch.int32)
    torch.testing.assert_close(got.reshape(-1), uniform(w0), atol=0, rtol=0)
    # columns past N stay poisoned (masked)
    assert bool(torch.isnan(u.cpu().view(M, stride)[:, N:]).all())


def triton_cdiv(a, b):
    return -(-a // b)


def test_reference_philox_known_answer():
    """The host Philox against the Random123 known-answer vector for
    Philox4x32-10 (counter and key all ones)."""
    ones = 0xFFFFFFFF
    assert philox((ones,) * 4, (ones, ones), 32) == (
        0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)
    assert math.isclose(4.6566127342e-10 * (2**31 - 1), 1.0, rel_tol=1e-6)
