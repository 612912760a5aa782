# expect: 12:9: error: Function scale is marked noinline, but was called with non-scalar argument val:<[64], fp32>
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit(noinline=True)
def scale(val, i):
    return val * i
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 64))
    y = scale(x, 2)
    tl.store(p + tl.arange(0, 64), y)
