# expect: 9:9: error: tl.inline_asm_elementwise: asm must be a string, got int
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.inline_asm_elementwise(3, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
