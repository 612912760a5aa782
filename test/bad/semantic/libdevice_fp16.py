# expect: 9:9: error: libdevice.erfinv: no overload for argument dtypes (fp16); expected one of (fp32), (fp64)
# kernel: kernel
# signature: *fp16
import triton
import triton.language as tl
from triton.language.extra import libdevice
@triton.jit
def kernel(p):
    y = libdevice.erfinv(tl.load(p + tl.arange(0, 16)))
