# Kernels that call jit helpers of other modules (issue 13 point 2).
import triton
import triton.language as tl
from pkg.ops.utils import scale
import pkg.ops.utils
import pkg.ops.utils as u
import helpers as h  # found with txlc -I incdir


@triton.jit
def from_import(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, scale(tl.load(x_ptr + offs)))


@triton.jit
def dotted(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = pkg.ops.utils.scale(tl.load(x_ptr + offs)) * u.SCALE
    tl.store(x_ptr + offs, x)


@triton.jit
def include_dir(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, h.twice(tl.load(x_ptr + offs)))


@triton.jit
def reads_unknown(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, u.uses_tuned(tl.load(x_ptr + offs)))


@triton.jit
def error_in_helper(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, u.broken(tl.load(x_ptr + offs)))
