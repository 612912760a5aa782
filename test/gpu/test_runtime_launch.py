"""The runtime's launch path on a GPU, independent of the compiler: with
TXL_LIBRARY=libtxl_fake.so every kernel is a hand-written PTX vector add
out[i] = x[i] + y[i] (i < n, i = ctaid.x * ntid.x + tid.x), JIT-compiled
by the driver. Globals SMEM_BYTES / CLUSTER_X make the stand-in ask for
dynamic shared memory (the kernel stages through its far end) / clusters.
"""

import time

import pytest
import torch

import txl
from conftest import fake_compiler
from harness import RAGGED_SIZES, check

pytestmark = fake_compiler

SMEM_BYTES = 160 * 1024  # > 48 KiB: needs the opt-in attribute
CLUSTER_X = 2


@txl.jit
def plain(x, y, out, n):
    pass


@txl.jit
def big_smem(x, y, out, n):
    return SMEM_BYTES


@txl.jit
def clustered(x, y, out, n):
    return CLUSTER_X


def cdiv(a, b):
    return (a + b - 1) // b


@pytest.mark.parametrize("n", RAGGED_SIZES)
@pytest.mark.parametrize("num_warps", [1, 4])
def test_plain_launch(n, num_warps):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    threads = 32 * num_warps
    check(lambda o, a, b: plain[(cdiv(n, threads),)](a, b, o, n,
                                                     num_warps=num_warps),
          lambda a, b: a + b, [x, y], [out], atol=0, rtol=0)


def test_metadata_and_device():
    major, minor = txl.device_capability()
    assert major >= 7
    launcher = plain.warmup(torch.empty(4, device="cuda"),
                            torch.empty(4, device="cuda"),
                            torch.empty(4, device="cuda"), 4)
    assert launcher.metadata["target"] == \
        f"sm_{major}{minor}" + ("a" if major >= 9 else "")


def test_dynamic_shared_memory_above_48k():
    n = 100000
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    check(lambda o, a, b: big_smem[(cdiv(n, 128),)](a, b, o, n),
          lambda a, b: a + b, [x, y], [out], atol=0, rtol=0)
    assert big_smem.warmup(x, y, out, n).metadata["shared_bytes"] == SMEM_BYTES


def test_cluster_launch_counts_programs_as_clusters():
    if txl.device_capability()[0] < 9:
        pytest.skip("clusters need sm_90")
    n = 50000
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    # Each program is a cluster of 2 CTAs of 128 threads.
    check(lambda o, a, b: clustered[(cdiv(n, 256),)](a, b, o, n),
          lambda a, b: a + b, [x, y], [out], atol=0, rtol=0)


def test_streams_and_empty_grids():
    n = 1 << 18
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.zeros_like(x)
    plain[(0,)](x, y, out, n)  # launches nothing
    torch.cuda.synchronize()
    assert out.abs().sum().item() == 0
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        torch.cuda._sleep(10_000_000)  # keep the stream busy
        plain[(cdiv(n, 128),)](x, y, out, n)
    stream.synchronize()
    torch.testing.assert_close(out, x + y, atol=0, rtol=0)


def test_launch_errors_surface_as_exceptions():
    x = torch.randn(16, device="cuda")
    with pytest.raises(txl.TxlError, match="cuLaunchKernelEx"):
        plain[(2**31,)](x, x, x, 16)  # grid.x above the 2^31-1 limit
    torch.cuda.synchronize()


def test_python_launch_overhead():
    n = 128
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    plain[(1,)](x, y, out, n)
    torch.cuda.synchronize()
    iterations = 2000  # few enough that the GPU queue never fills
    start = time.perf_counter()
    for _ in range(iterations):
        plain[(1,)](x, y, out, n)
    host_us = (time.perf_counter() - start) / iterations * 1e6
    torch.cuda.synchronize()
    key, _ = plain._binder(x, y, out, n)
    launcher = plain.cache[key]
    real_call = launcher._call
    launcher._call = lambda buffer: 0
    start = time.perf_counter()
    for _ in range(iterations):
        plain[(1,)](x, y, out, n)
    python_us = (time.perf_counter() - start) / iterations * 1e6
    launcher._call = real_call
    print(f"\nlaunch: {host_us:.2f} us per call, of which Python "
          f"{python_us:.2f} us")
    # The target is <= 5 us; the bound leaves room for a noisy host.
    assert python_us < 8
