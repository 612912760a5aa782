# expect: 8:5: error: txl.prefetch_l2() takes at most 3 arguments but 4 were given
# kernel: kernel
# signature: *bf16:16
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.prefetch_l2(p, 256, txl.tid(0) == 0, 1)
