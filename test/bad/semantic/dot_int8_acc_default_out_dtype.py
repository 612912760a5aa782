# expect: 10:9: error: tl.dot: acc has type int32 but out_dtype is fp32
# kernel: kernel
# signature: *i8:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    r = tl.arange(0, 16)
    a = tl.load(x + r[:, None] * 16 + r[None, :])
    y = tl.dot(a, a, tl.zeros((16, 16), tl.int32))
