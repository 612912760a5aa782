# expect: 12:5: error: txl.dotx: an M = 64 MMA (acc tensor-memory buffer <[64, 128], fp32>) takes a from shared memory and no two_ctas
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.tmem_alloc([64, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([64, 128], dtype=tl.float32), 0)
    txl.dotx(a, b, acc)
