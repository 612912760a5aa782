# expect: 8:9: error: shape element 0 must be a power of 2, got 10
# kernel: kernel
# signature: *i32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    h = tl.histogram(tl.load(x + tl.arange(0, 16)), 10)
