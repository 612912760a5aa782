"""Kernels written against Triton's API (import triton), for test_triton_compat.py:
they compile through txl under the drop-in switch."""

import triton
import triton.language as tl

SCALE = tl.constexpr(2)
OFFSETS = (0, 1)


@triton.jit
def _twice(x):
    return x * SCALE


@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs + OFFSETS[0], _twice(x), mask=offs < n)


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4, num_buffers_warp_spec=2),
                          triton.Config({"BLOCK": 256}, num_warps=8)],
                 key=["n"], prune_configs_by={"early_config_prune": lambda c, named, **kw: c[:1]})
@triton.jit(launch_metadata=None, do_not_specialize=["n"])
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def make_nested(block):
    @triton.jit
    def inner_helper(v):
        return v + 1

    @triton.jit
    def kernel(x_ptr, y_ptr):
        offs = tl.arange(0, block)
        tl.store(y_ptr + offs, inner_helper(tl.load(x_ptr + offs)))
    return kernel


def template_kernel():
    @triton.jit
    def kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, GENERATE_TEST_HERE)
    return kernel
