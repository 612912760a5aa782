# expect: 10:9: error: txl.tmem_load: buf must be a tensor-memory buffer (txl.get_buffer of txl.tmem_alloc), got a shared buffer <[128, 128], fp32>
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    buf = txl.get_buffer(txl.smem_alloc([128, 128], dtype=tl.float32), 0)
    c = txl.tmem_load(buf)
