# expect: 11:5: error: txl.tmem_copy: src shared buffer <[128, 64], fp16> and dst tensor-memory buffer <[128, 32], fp16> must be one [128, K] shape and dtype (a row per tensor-memory lane)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    s = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    t = txl.get_buffer(txl.tmem_alloc([128, 32], dtype=tl.float16), 0)
    txl.tmem_copy(t, s)
