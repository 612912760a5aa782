# expect: 9:9: error: tl.inline_asm_elementwise: the constraints name 1 outputs and 2 inputs, but pack=1 of these dtypes needs 1 outputs and 1 inputs
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
