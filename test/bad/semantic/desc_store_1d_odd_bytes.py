# expect: 8:5: error: desc.store: Descriptor block shape must have at least 16 bytes in the last dimension: the innermost dimension of tensor descriptor <[2], fp32> spans 8 bytes (a TMA box row spans a multiple of 16 bytes)
# kernel: kernel
# signature: tensordesc<fp32[2]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    desc.store([0], tl.zeros([2], dtype=tl.float32))
