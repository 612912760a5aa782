# expect: 9:9: error: tl.histogram: mask must have boolean scalar type, got <[16], int32>
# kernel: kernel
# signature: *i32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    r = tl.arange(0, 16)
    h = tl.histogram(tl.load(x + r), 8, mask=r)
