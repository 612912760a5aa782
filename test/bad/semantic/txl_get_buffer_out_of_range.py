# expect: 8:9: error: txl.get_buffer: index 2 is out of range for 2 stage(s)
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    b = txl.get_buffer(txl.mbar_alloc(1, num_stages=2), 2)
