# expect: 8:5: error: txl.reg_alloc must be called inside an 'if txl.is_warpgroup(...)' branch
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    txl.reg_alloc(232)
