# tma_store of a buffer covering part of the descriptor's block (the TXL
# project's sparse-attention kernel stores a [64, 512] output block as two
# [64, 256] halves).
import triton.language as tl
import txl


@txl.jit
def store_halves(o_desc, row):
    half = txl.get_buffer(txl.smem_alloc([64, 256], dtype=tl.bfloat16), 0)
    txl.smem_store(half, tl.zeros([64, 256], dtype=tl.bfloat16))
    txl.fence_proxy_async()
    txl.tma_store(half, o_desc, [row, 0])
    txl.tma_store(half, o_desc, [row, 256])
    txl.tma_store_wait(0)


@txl.jit
def store_narrow(o_desc, row):
    part = txl.get_buffer(txl.smem_alloc([64, 32], dtype=tl.bfloat16), 0)
    txl.tma_store(part, o_desc, [row, 0])


@txl.jit
def store_fewer_rows(o_desc, row):
    part = txl.get_buffer(txl.smem_alloc([32, 512], dtype=tl.bfloat16), 0)
    txl.tma_store(part, o_desc, [row, 0])
