# expect: 10:9: error: tl.join: a and b must have the same dtype, got fp32 and fp16
# kernel: kernel
# signature: *fp32, *fp16
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 16))
    b = tl.load(q + tl.arange(0, 16))
    c = tl.join(a, b)
