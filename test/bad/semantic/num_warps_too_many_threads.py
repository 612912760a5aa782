# expect: 8:1: error: num_warps = 64 x num_warpgroups = 1 makes 2048 threads per CTA
# kernel: kernel
# signature: *fp32
# num-warps: 64
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    tl.store(p, 1.0)
