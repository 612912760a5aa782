# expect: 11:5: error: txl.tma_load: only 2-D tensor descriptors are supported, got tensor descriptor <[256], fp16>
# kernel: kernel
# signature: tensordesc<fp16[256]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([256], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 512)
    txl.tma_load(buf, desc, [0], bar)
    txl.mbar_wait(bar, 0)
