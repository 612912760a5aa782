# expect: 9:5: error: txl.mbar_wait: mbar must be an mbarrier
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    buf = txl.get_buffer(txl.smem_alloc([128], dtype=tl.float32), 0)
    txl.mbar_wait(buf, 0)
