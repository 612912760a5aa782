# expect: 11:9: error: tl.dot_scaled: unknown lhs_format 'e3m2' (expected 'e2m1', 'e4m3', 'e5m2', 'bf16' or 'fp16')
# kernel: kernel
# signature: *u8, *u8, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, q):
    r = tl.arange(0, 64)
    a = tl.load(p + r[:, None] * 64 + r[None, :])
    sa = tl.load(s + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e3m2", a, None, "e4m3")
    tl.store(q + r[:, None] * 64 + r[None, :], c)
