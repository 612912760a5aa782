# expect: 11:5: error: txl.tma_gather: row_offsets must be a 1-D int32 tensor of the destination's 64 rows, got
# kernel: kernel
# signature: tensordesc<fp16[1, 64]>, *i64
import triton.language as tl
import txl
@txl.jit
def kernel(x_desc, idx_ptr):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    rows = tl.load(idx_ptr + tl.arange(0, 64))
    txl.tma_gather(buf, x_desc, bar, rows, 0)
