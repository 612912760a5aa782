# expect: 9:9: error: tl.gather: index must be an integer tensor, got <[16], fp32>
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.gather(x, x, 0)
