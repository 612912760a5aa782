"""Vector add through the real compiler at ragged sizes."""

import pytest
import torch

import txl
from conftest import real_compiler
from harness import RAGGED_SIZES, check, random_tensor

pytestmark = real_compiler


def cdiv(a, b):
    return (a + b - 1) // b


@pytest.mark.parametrize("n", RAGGED_SIZES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_vector_add_ragged(n, dtype):
    from txl_kernels_vector_add import add_kernel
    gen = torch.Generator(device="cuda").manual_seed(n)
    x = random_tensor((n,), dtype, generator=gen)
    y = random_tensor((n,), dtype, generator=gen)
    out = torch.empty_like(x)
    block = 1024
    check(lambda o, a, b: add_kernel[(cdiv(n, block),)](a, b, o, n,
                                                        BLOCK_SIZE=block),
          lambda a, b: a + b, [x, y], [out])


@pytest.mark.parametrize("block", [128, 256, 2048])
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_vector_add_blocks_and_warps(block, num_warps):
    from txl_kernels_vector_add import add_kernel
    n = 10007
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    grid = lambda meta: (cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)  # noqa
    check(lambda o, a, b: add_kernel[grid](a, b, o, n, BLOCK_SIZE=block,
                                           num_warps=num_warps),
          lambda a, b: a + b, [x, y], [out])


def test_vector_add_on_a_side_stream_and_offsets():
    from txl_kernels_vector_add import add_kernel
    n = 1 << 16
    x = torch.randn(n + 3, device="cuda")[3:]  # a pointer without 16-B alignment
    y = torch.randn(n, device="cuda")
    out = torch.empty(n, device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        check(lambda o, a, b: add_kernel[(cdiv(n, 1024),)](a, b, o, n,
                                                           BLOCK_SIZE=1024),
              lambda a, b: a + b, [x, y], [out])


def test_triton_language_kernels_with_triton_loaded():
    pytest.importorskip("triton")
    import triton_kernels_vector_add as tk
    n = 5000
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out_txl = torch.empty_like(x)
    out_triton = torch.empty_like(x)
    tk.add_kernel[(cdiv(n, 512),)](x, y, out_txl, n, BLOCK_SIZE=512)
    tk.triton_add_kernel[(cdiv(n, 512),)](x, y, out_triton, n, BLOCK_SIZE=512)
    torch.cuda.synchronize()
    torch.testing.assert_close(out_txl, x + y)
    torch.testing.assert_close(out_triton, out_txl)


def test_compile_only_artifacts_for_this_device():
    from txl_kernels_vector_add import add_kernel
    k = txl.compile(add_kernel, "*fp32:16,*fp32:16,*fp32:16,i32,1024")
    major, minor = txl.device_capability()
    assert k.metadata["target"].startswith(f"sm_{major}{minor}")
    assert ".entry add_kernel" in k.asm["ptx"] or "add_kernel" in k.asm["ptx"]
