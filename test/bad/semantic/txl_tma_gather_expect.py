# expect: 11:5: error: txl.mbar_expect: expects 4096 bytes but the TMA loads signalling this barrier deliver 8192
# kernel: kernel
# signature: tensordesc<fp16[1, 64]>, *i32
import triton.language as tl
import txl
@txl.jit
def kernel(x_desc, idx_ptr):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    rows = tl.load(idx_ptr + tl.arange(0, 64))
    txl.mbar_expect(bar, 32 * 64 * 2)
    txl.tma_gather(buf, x_desc, bar, rows, 0)
    txl.mbar_wait(bar, 0)
