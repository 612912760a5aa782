# expect: 10:9: error: tl.gather: index dimension 1 must match the source's (<[16, 16], fp32> and <[16, 8], int32>)
# kernel: kernel
# signature: *fp32, *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    i = tl.load(q + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :])
    y = tl.gather(x, i, 0)
