# expect: 7:12: error: parameter 'desc': the descriptor block [512, 64] exceeds the TMA box limit of 256 along dimension 0
# kernel: kernel
# signature: tensordesc<fp16[512, 64]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    # One TMA box spans at most 256 rows.
    buf = txl.get_buffer(txl.smem_alloc([512, 64], dtype=tl.float16), 0)
