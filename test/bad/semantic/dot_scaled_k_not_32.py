# expect: 11:9: error: tl.dot_scaled: K = 16 is not a multiple of 32, the number of elements that share one scale
# kernel: kernel
# signature: *u8, *u8, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, s, q):
    r = tl.arange(0, 16)
    a = tl.load(p + r[:, None] * 16 + r[None, :])
    sa = tl.load(s + r[:, None] + tl.arange(0, 1)[None, :])
    c = tl.dot_scaled(a, sa, "e4m3", a, None, "e4m3")
    tl.store(q + r[:, None] * 16 + r[None, :], c)
