# expect: 10:9: error: tl.dot operands must have the same type
# kernel: kernel
# signature: *fp16, *bf16, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, r, q):
    a = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    b = tl.load(r + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b)
    tl.store(q + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)
