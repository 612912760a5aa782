# expect: 8:1: error: num_warps = 4 x num_warpgroups = 1024 makes 131072 threads per CTA
# kernel: kernel
# signature: *fp32
# num-warpgroups: 1024
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    tl.store(p, 1.0)
