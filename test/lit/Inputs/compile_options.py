"""Compile options (lit e2e/compile-options): enable_fp_fusion (a*b + c as
one fma or a separately rounded multiply and add), enable_reflect_ftz
(libdevice's fp32 flush-to-zero forms) and maxnreg (.maxnreg on the
entry)."""
import triton.language as tl
from triton.language.extra import libdevice
import txl


@txl.jit
def mul_add(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 1.5 + 1.0)


@txl.jit
def lib_exp2(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, libdevice.exp2(tl.load(x_ptr + offs)))
