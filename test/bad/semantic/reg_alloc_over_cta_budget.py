# expect: 13:9: error: the warpgroups' registers add up to 66560 per CTA ((40 + 240 + 240) x 128 threads)
# kernel: kernel
# signature: *fp32
# num-warpgroups: 3
import triton
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(40)
    else:
        txl.reg_alloc(240)
    tl.store(p, 1.0)
