# expect: 11:9: error: tl.dot_scaled: float8e4nv scales (nvfp4) need format 'e2m1', but lhs_format is 'e4m3'
# kernel: kernel
# signature: *u8, *fp8e4nv, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, q):
    r = tl.arange(0, 64)
    a = tl.load(p + r[:, None] * 64 + r[None, :])
    sa = tl.load(s + r[:, None] * 4 + tl.arange(0, 4)[None, :])
    c = tl.dot_scaled(a, sa, "e4m3", a, None, "e4m3")
    tl.store(q + r[:, None] * 64 + r[None, :], c)
