# expect: 9:9: error: tl.expand_dims: duplicate axes, normalized axes = [0, 0]
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.arange(0, 32)
    t = tl.expand_dims(x, (0, -3))
