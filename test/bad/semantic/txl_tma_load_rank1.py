# expect: 11:5: error: txl.tma_load: Descriptor block shape must have at least 16 bytes in the last dimension: the innermost dimension of tensor descriptor <[4], fp16> spans 8 bytes (a TMA box row spans a multiple of 16 bytes)
# kernel: kernel
# signature: tensordesc<fp16[4]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([4], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 8)
    txl.tma_load(buf, desc, [0], bar)
    txl.mbar_wait(bar, 0)
