# expect: 8:5: error: txl.prefetch_l2: the byte count must be an integer scalar, got fp32
# kernel: kernel
# signature: *bf16:16
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.prefetch_l2(p, 256.0)
