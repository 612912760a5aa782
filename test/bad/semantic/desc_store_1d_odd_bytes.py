# expect: 8:5: error: desc.store: the 1-D block of tensor descriptor <[2], fp32> spans 8 bytes; a TMA box spans a multiple of 16 bytes
# kernel: kernel
# signature: tensordesc<fp32[2]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    desc.store([0], tl.zeros([2], dtype=tl.float32))
