# expect: 9:9: error: offset must be an integer, got fp32
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, seed):
    x = tl.load(p + tl.arange(0, 16))
    r = tl.rand(seed, x)
