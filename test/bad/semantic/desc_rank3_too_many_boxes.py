# expect: 9:7: error: parameter 'x_desc': the descriptor block [64, 2, 512] would be 512 TMA boxes (at most 256 elements per dimension, rows one swizzle span wide); at most 256 are supported, use a smaller block
# kernel: k
# signature: tensordesc<fp16[64, 2, 512]>, tensordesc<fp16[64, 2, 512]>
import triton.language as tl
import txl


@txl.jit
def k(x_desc, y_desc):
    y_desc.store([0, 0, 0], x_desc.load([0, 0, 0]))
