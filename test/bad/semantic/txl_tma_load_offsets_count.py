# expect: 10:5: error: txl.tma_load: the descriptor has rank 2 but 1 offsets were given
# kernel: kernel
# signature: tensordesc<fp16[64, 128]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, desc, [tl.program_id(0) * 64], bar)
