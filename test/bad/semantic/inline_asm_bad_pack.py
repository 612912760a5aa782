# expect: 9:9: error: tl.inline_asm_elementwise: pack=3 does not fill whole 32-bit registers of int16 (argument 0)
# kernel: kernel
# signature: *i16
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,=r,=r,r,r", [x], dtype=tl.int32, is_pure=True, pack=3)
