# expect: 7:12: error: parameter 'desc': the descriptor block [64, 96] must have power-of-two dimensions
# kernel: kernel
# signature: tensordesc<fp16[64, 96]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    # Shared tiles (and so TMA blocks) have power-of-two dimensions.
    buf = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
