# expect: 8:5: error: txl.tma_store_wait: the pending count must be in [0, 7], got 8
# kernel: kernel
# signature: tensordesc<bf16[64, 64]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    txl.tma_store_wait(8)
