# expect: 10:13: error: txl.reg_alloc is under an 'if' whose condition may differ between the threads of a warpgroup: setmaxnreg must be executed by all threads of a warpgroup or by none
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    if txl.is_warpgroup([0]):
        if txl.tid(0) < 64:
            txl.reg_alloc(232)
