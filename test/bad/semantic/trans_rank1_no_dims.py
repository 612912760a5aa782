# expect: 8:9: error: trans() without dims needs a tensor of rank 2 or more
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.trans(tl.load(p + tl.arange(0, 32)))
    tl.store(p + tl.arange(0, 32), x)
