# expect: 7:12: error: parameter 'desc': the descriptor block [512, 256, 256] would be 2048 TMA boxes (at most 256 elements per dimension, rows one swizzle span wide); at most 256 are supported, use a smaller block
# kernel: kernel
# signature: tensordesc<fp16[512, 256, 256]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    # Boxes of [1, 256, 64]: 512 along the first dimension, 4 along the rows.
    desc.store([0, 0, 0], desc.load([0, 0, 0]))
