# expect: 12:9: error: tl.dot_scaled: lhs_scale must be [M, K/16] = [64, 4], got <[64, 2], fp8e4nv>
# kernel: kernel
# signature: *u8, *fp8e4nv, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, q):
    r = tl.arange(0, 64)
    a = tl.load(p + r[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(p + tl.arange(0, 32)[:, None] * 64 + r[None, :])
    sa = tl.load(s + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, None, "e2m1")
    tl.store(q + r[:, None] * 64 + r[None, :], c)
