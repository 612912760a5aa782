# expect: 9:13: error: expected a tensor or a number, got a shared buffer
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    buf = txl.get_buffer(txl.smem_alloc([128], dtype=tl.float32), 0)
    x = buf + 1.0
