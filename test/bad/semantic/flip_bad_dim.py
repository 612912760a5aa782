# expect: 9:9: error: tl.flip: dim 2 is out of range for a tensor of rank 2
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] + tl.arange(0, 4)[None, :])
    y = tl.flip(x, 2)
