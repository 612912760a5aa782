# expect: 10:5: error: txl.tma_gather: the destination must be a 2-D buffer [rows, W], got
# kernel: kernel
# signature: tensordesc<fp16[1, 64]>, *i32
import triton.language as tl
import txl
@txl.jit
def kernel(x_desc, idx_ptr):
    buf = txl.get_buffer(txl.smem_alloc([2, 32, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_gather(buf, x_desc, bar, tl.load(idx_ptr + tl.arange(0, 2)), 0)
