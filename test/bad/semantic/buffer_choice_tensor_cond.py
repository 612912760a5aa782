# expect: 11:11: error: choosing between shared buffers needs a scalar condition, got a <[64], int1>
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.smem_alloc([64, 64], dtype=tl.float32)
    b = txl.smem_alloc([64, 64], dtype=tl.float32)
    offs = tl.arange(0, 64)
    buf = a if offs < 32 else b
    txl.smem_store(txl.get_buffer(buf, 0), tl.zeros([64, 64], tl.float32))
