# expect: 9:9: error: tl.dot needs 2-D operands
# kernel: kernel
# signature: *fp16, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 16))
    c = tl.dot(a, a)
    tl.store(q + tl.arange(0, 16), c)
