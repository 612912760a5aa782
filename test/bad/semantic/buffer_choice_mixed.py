# expect: 10:11: error: a conditional expression can choose between two shared buffers or two mbarriers, not a
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.smem_alloc([64, 64], dtype=tl.float32)
    pid = tl.program_id(0)
    buf = a if pid == 0 else tl.zeros([64, 64], tl.float32)
    txl.smem_store(txl.get_buffer(buf, 0), tl.zeros([64, 64], tl.float32))
