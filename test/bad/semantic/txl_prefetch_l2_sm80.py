# expect: 9:5: error: txl.prefetch_l2 needs sm_90 or later, but the target is sm_80
# kernel: kernel
# signature: *bf16:16
# target: sm_80
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.prefetch_l2(p, 256)
