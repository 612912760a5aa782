# expect: 9:9: error: tl.inline_asm_elementwise needs at least one result dtype
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("", "r", [x], dtype=(), is_pure=False, pack=1)
