# expect: 10:9: error: txl.tmem_slice: columns [64, 160) of tensor-memory buffer <[128, 256], fp32> must be a power-of-two length at a multiple of it, of at least one 32-bit column
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0)
    c = txl.tmem_slice(acc, 64, 96)
