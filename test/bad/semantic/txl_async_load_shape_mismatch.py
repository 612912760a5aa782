# expect: 10:5: error: txl.async_load: pointers
# kernel: kernel
# signature: *fp16:16, 128
import triton.language as tl
import txl
@txl.jit
def kernel(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    bufs = txl.smem_alloc([2 * BLOCK], dtype=tl.float16)
    txl.async_load(txl.get_buffer(bufs, 0), x + offs)
