# expect: 10:9: error: libdevice.hypot: no overload for argument dtypes (fp64, fp32); expected one of (fp32, fp32), (fp64, fp64)
# kernel: kernel
# signature: *fp64, *fp32
import triton
import triton.language as tl
from triton.language.extra import libdevice
@triton.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 16))
    y = libdevice.hypot(x, tl.load(q + tl.arange(0, 16)))
