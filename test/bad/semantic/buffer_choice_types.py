# expect: 11:11: error: a conditional expression chooses between shared buffers of different types: shared buffer array <[1, 64, 64], fp32> and shared buffer array <[1, 64, 32], fp32>
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.smem_alloc([64, 64], dtype=tl.float32)
    b = txl.smem_alloc([64, 32], dtype=tl.float32)
    pid = tl.program_id(0)
    buf = a if pid == 0 else b
    txl.smem_store(txl.get_buffer(buf, 0), tl.zeros([64, 64], tl.float32))
