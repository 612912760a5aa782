# expect: 8:5: error: static_assert failed: BLOCK=8 is below 16 ('tl.float32', dtype fp32)
# kernel: kernel
# signature: *fp32, 8
import triton
import triton.language as tl
@triton.jit
def kernel(p, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 16, f"{BLOCK=} is below {16:>4} ({'tl.float32'!r}, dtype {tl.float32})")
    tl.store(p + tl.arange(0, BLOCK), 0.0)
