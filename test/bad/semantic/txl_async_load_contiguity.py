# expect: 10:5: error: txl.async_load: contiguity must be -1 (let the compiler prove it) or a power of two from 1 to 16, got 3
# kernel: kernel
# signature: *fp16:16
import triton.language as tl
import txl
@txl.jit
def kernel(a_ptr):
    offs = tl.arange(0, 64)
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.async_load(buf, a_ptr + offs[:, None] * 64 + offs[None, :], contiguity=3)
