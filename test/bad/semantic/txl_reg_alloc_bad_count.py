# expect: 9:9: error: txl.reg_dealloc(30): the register count must be a multiple of 8
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(30)
