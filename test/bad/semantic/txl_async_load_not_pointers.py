# expect: 9:5: error: txl.async_load: ptrs must be a tensor of pointers
# kernel: kernel
# signature: *fp16:16, 128
import triton.language as tl
import txl
@txl.jit
def kernel(x, BLOCK: tl.constexpr):
    bufs = txl.smem_alloc([BLOCK], dtype=tl.float16)
    txl.async_load(txl.get_buffer(bufs, 0), tl.arange(0, BLOCK))
