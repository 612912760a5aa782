# expect: 9:5: error: txl.smem_store: sync must be a compile-time bool, got a runtime int1
# kernel: kernel
# signature: i32
import triton.language as tl
import txl
@txl.jit
def kernel(n):
    buf = txl.get_buffer(txl.smem_alloc([64], dtype=tl.float32), 0)
    txl.smem_store(buf, tl.zeros([64], dtype=tl.float32), sync=n > 0)
