# expect: 10:9: error: tl.dot: batch dimensions differ
# kernel: kernel
# signature: *fp16, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 2048)).reshape(2, 32, 32)
    b = tl.load(p + tl.arange(0, 4096)).reshape(4, 32, 32)
    c = tl.dot(a, b)
    tl.store(q + tl.arange(0, 2048), c.reshape(2048))
