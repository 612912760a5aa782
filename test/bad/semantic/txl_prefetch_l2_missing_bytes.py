# expect: 8:5: error: txl.prefetch_l2() missing required argument 'nbytes'
# kernel: kernel
# signature: *bf16:16
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.prefetch_l2(p)
