# expect: 10:5: error: txl.tma_store: the descriptor has rank 2 but 3 offsets were given
# kernel: kernel
# signature: tensordesc<fp32[32, 64]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([32, 64], dtype=tl.float32), 0)
    txl.smem_store(buf, tl.zeros([32, 64], dtype=tl.float32))
    txl.tma_store(buf, desc, [0, 0, 0])
