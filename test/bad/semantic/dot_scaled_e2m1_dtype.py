# expect: 11:9: error: tl.dot_scaled: lhs in format 'e2m1' must be uint8 (two values per byte), got <[64, 64], fp16>
# kernel: kernel
# signature: *fp16, *u8, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, q):
    r = tl.arange(0, 64)
    a = tl.load(p + r[:, None] * 64 + r[None, :])
    sa = tl.load(s + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, None, "e2m1", a, None, "fp16")
    tl.store(q + r[:, None] * 64 + r[None, :], c)
