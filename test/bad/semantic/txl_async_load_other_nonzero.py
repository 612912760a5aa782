# expect: 11:5: error: txl.async_load: cp.async fills masked-off elements with zeros; `other` must be None or 0
# kernel: kernel
# signature: *fp16:16, i32, 128
import triton.language as tl
import txl
@txl.jit
def kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    bufs = txl.smem_alloc([BLOCK], dtype=tl.float16)
    # cp.async can only zero-fill: a padding value of 1 is rejected.
    txl.async_load(txl.get_buffer(bufs, 0), x + offs, mask=offs < n, other=1.0)
