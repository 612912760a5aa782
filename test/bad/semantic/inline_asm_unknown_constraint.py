# expect: 9:9: error: tl.inline_asm_elementwise: unknown constraint 'x' (PTX registers: h, r, l, f, d; n for immediates)
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=x,r", [x], dtype=tl.int32, is_pure=True, pack=1)
