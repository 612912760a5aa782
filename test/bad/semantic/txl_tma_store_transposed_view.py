# expect: 11:5: error: txl.tma_store: the buffer shared buffer <[128, 64], fp16> is a transposed view; TMA copies rows in the descriptor's basis, so copy into (or out of) the buffer itself and transpose where it is read (.T or txl.smem_trans on the reader's side)
# kernel: kernel
# signature: tensordesc<fp16[128, 64]>
# target: sm_90a
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    txl.smem_store(buf, tl.zeros([64, 128], dtype=tl.float16))
    txl.tma_store(txl.smem_trans(buf, [1, 0]), desc, [0, 0])
    txl.tma_store_wait(0)
