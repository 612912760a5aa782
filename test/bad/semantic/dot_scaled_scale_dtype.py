# expect: 11:9: error: tl.dot_scaled: lhs_scale must hold uint8 e8m0 exponents (or float8e4nv factors with e2m1 operands: nvfp4), got <[64, 2], fp32>
# kernel: kernel
# signature: *u8, *fp32, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, q):
    r = tl.arange(0, 64)
    a = tl.load(p + r[:, None] * 64 + r[None, :])
    sa = tl.load(s + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e4m3", a, None, "e4m3")
    tl.store(q + r[:, None] * 64 + r[None, :], c)
