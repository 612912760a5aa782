# expect: 9:9: error: tl.dot: only int8 is supported among integer operands, got <[32, 32], uint8>
# kernel: kernel
# signature: *u8:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    r = tl.arange(0, 32)
    y = tl.dot(tl.load(x + r[:, None] * 32 + r[None, :]), tl.load(x + r[:, None] * 32 + r[None, :]))
