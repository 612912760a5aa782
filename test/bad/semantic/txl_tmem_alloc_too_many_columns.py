# expect: 9:11: error: txl.tmem_alloc: 3 stage(s) of [128, 256] fp32 need 768 tensor-memory columns, more than the 512 an SM has
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.tmem_alloc([128, 256], dtype=tl.float32, num_stages=3)
