# expect: 9:5: error: txl.tma_store: the buffer shared buffer <[64, 32], bf16> covers part of the descriptor's block tensor descriptor <[64, 512], bf16>; a partial store needs all of the block's rows
# kernel: kernel
# signature: tensordesc<bf16[64, 512]>, i32
import triton.language as tl
import txl
@txl.jit
def kernel(o_desc, row):
    part = txl.get_buffer(txl.smem_alloc([64, 32], dtype=tl.bfloat16), 0)
    txl.tma_store(part, o_desc, [row, 0])
