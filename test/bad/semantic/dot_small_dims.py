# expect: 10:9: error: tl.dot needs K >= 16, got <[16, 8], fp16> @ <[8, 16], fp16>
# kernel: kernel
# signature: *fp16, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :])
    b = tl.load(p + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b)
    tl.store(q + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)
