"""Kernels for test_autotune_gpu.py (a file of their own: txl compiles a
kernel from its module's source)."""

import txl
import txl.language as tl


@txl.jit
def sum_into(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[0] += sum(x) by one atomic per program: needs reset_to_zero."""
    tl.static_assert(BLOCK <= 4096, "BLOCK too large for this kernel")
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


@txl.jit
def scale(x_ptr, y_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor,
             mask=mask)
