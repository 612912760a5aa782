# expect: 9:9: error: libdevice.popc: no overload for argument dtypes (fp32); expected one of (int32), (int64)
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.extra.cuda.libdevice.popc(x)
