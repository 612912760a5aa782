import triton
import triton.language as tl


@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    # "=l" makes $0 a 64-bit register, which mov.b32 does not take.
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=l,l",
                                  [x.to(tl.int64)], dtype=tl.int64,
                                  is_pure=True, pack=1)
    tl.store(p + tl.arange(0, 16), y.to(tl.int32))
