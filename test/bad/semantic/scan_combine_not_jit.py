# expect: 8:9: error: tl.associative_scan: combine_fn must be a @jit function
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    y = tl.associative_scan(tl.load(x + tl.arange(0, 16)), 0, 3)
