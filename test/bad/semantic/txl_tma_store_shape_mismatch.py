# expect: 10:5: error: txl.tma_store: the buffer shared buffer <[64, 128], fp16> does not match the descriptor's block tensor descriptor <[128, 64], fp16>
# kernel: kernel
# signature: tensordesc<fp16[128, 64]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    # Same bytes, transposed shape: still not the descriptor's block.
    buf = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    txl.tma_store(buf, desc, [0, 0])
