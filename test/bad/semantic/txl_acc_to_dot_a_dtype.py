# expect: 9:9: error: txl.acc_to_dot_a: x must be fp16, bf16 or fp8 (a wgmma register A type), got <[64, 64], fp32>
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :])
    y = txl.acc_to_dot_a(x)
