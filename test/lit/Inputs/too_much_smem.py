# Four 64 KiB fp32 stages: more shared memory than any CTA may have.
import triton.language as tl
import txl

@txl.jit
def big(x_ptr):
    bufs = txl.smem_alloc([128, 128], dtype=tl.float32, num_stages=4)
    txl.smem_store(txl.get_buffer(bufs, 0), tl.zeros([128, 128], dtype=tl.float32))
