# expect: 13:9: error: tl.dot_scaled: the scales' formats differ: lhs_scale is <[64, 4], fp8e4nv> and rhs_scale <[64, 2], uint8> (nvfp4 takes float8e4nv scales on both sides)
# kernel: kernel
# signature: *u8, *fp8e4nv, *u8, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, t, q):
    r = tl.arange(0, 64)
    a = tl.load(p + r[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(p + tl.arange(0, 32)[:, None] * 64 + r[None, :])
    sa = tl.load(s + r[:, None] * 4 + tl.arange(0, 4)[None, :])
    sb = tl.load(t + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1")
    tl.store(q + r[:, None] * 64 + r[None, :], c)
