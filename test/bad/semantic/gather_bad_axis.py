# expect: 9:9: error: tl.gather: axis 2 is out of range for a tensor of rank 1
# kernel: kernel
# signature: *fp32, *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.gather(x, tl.load(q + tl.arange(0, 16)), 2)
