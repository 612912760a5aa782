# expect: 9:12: error: tl.split needs a tensor whose last dimension is 2, got [16, 4]
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] * 4 + tl.arange(0, 4)[None, :])
    a, b = tl.split(x)
    tl.store(p + tl.arange(0, 16), a)
