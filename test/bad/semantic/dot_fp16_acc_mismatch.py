# expect: 11:9: error: tl.dot: the accumulator must have the result's type fp16 (out_dtype), got <[16, 16], fp32>
# kernel: kernel
# signature: *fp16, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    b = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    acc = tl.zeros((16, 16), tl.float32)
    c = tl.dot(a, b, acc, out_dtype=tl.float16)
    tl.store(q + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)
