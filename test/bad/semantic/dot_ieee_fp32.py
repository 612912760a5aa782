# expect: 10:9: error: tl.dot: only input_precision='tf32' is supported
# kernel: kernel
# signature: *fp32, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    b = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b, input_precision="ieee")
    tl.store(q + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)
