"""A kernel that calls libdevice, for test_extern_libs.py."""
import txl
import txl.language as tl
from txl.language.extra import libdevice


@txl.jit
def asin_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, libdevice.asin(x), mask=mask)
