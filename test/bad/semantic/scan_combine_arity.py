# expect: 11:9: error: the combine function must return 1 value(s), got 2
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def pair(a, b):
    return a + b, a * b
@txl.jit
def kernel(x):
    y = tl.associative_scan(tl.load(x + tl.arange(0, 16)), 0, pair)
