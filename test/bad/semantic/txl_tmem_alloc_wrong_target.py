# expect: 9:11: error: txl.tmem_alloc needs tensor memory and tcgen05 (sm_100a), but the target is sm_90a
# kernel: kernel
# signature: *fp32
# target: sm_90a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.tmem_alloc([128, 128], dtype=tl.float32)
