# expect: 11:5: error: txl.clc_try_cancel needs cluster launch control (sm_100 or later), but the target is sm_90a
# kernel: kernel
# signature: *fp32
# target: sm_90a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    resp = txl.get_buffer(txl.smem_alloc([4], dtype=tl.int32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.clc_try_cancel(resp, bar)
