# expect: 11:5: error: txl.tmem_store: layout '16x256b' cannot move tensor-memory buffer <[128, 4], fp32>: 16x256b moves 8 32-bit columns per warp, more than the 4 each warpgroup holds
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    buf = txl.get_buffer(txl.tmem_alloc([128, 4], dtype=tl.float32), 0)
    x = tl.zeros([128, 4], dtype=tl.float32)
    txl.tmem_store(buf, x, layout="16x256b")
