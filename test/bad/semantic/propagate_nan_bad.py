# expect: 9:61: error: 'tl.PropagateNan.SOME' does not exist (ALL or NONE)
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.clamp(x, 0.0, 1.0, propagate_nan=tl.PropagateNan.SOME)
