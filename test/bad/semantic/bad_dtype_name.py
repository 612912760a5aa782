# expect: 8:26: error: 'tl.flaot16' is not supported
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p).to(tl.flaot16)
    tl.store(p, x)
