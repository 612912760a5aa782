# expect: 10:9: error: txl.acc_to_dot_a: x must be 2-D with a multiple of 32 columns, got <[64, 16], fp8e4nv>
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    # One 8-bit A fragment spans 32 columns (k32).
    y = txl.acc_to_dot_a(x.to(tl.float8e4nv))
