# expect: 10:9: error: tl.dot of 8-bit operands needs K >= 32, got <[16, 16], int8> @ <[16, 16], int8>
# kernel: kernel
# signature: *i8:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    r = tl.arange(0, 16)
    a = tl.load(x + r[:, None] * 16 + r[None, :])
    y = tl.dot(a, a)
