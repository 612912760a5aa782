# expect: 7:25: error: name 'offz' is not defined
# kernel: kernel
# signature: *fp32
import triton.language as tl
@triton.jit
def kernel(p):
    tl.store(p, tl.load(offz))
