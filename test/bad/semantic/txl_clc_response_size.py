# expect: 11:5: error: txl.clc_try_cancel: the response buffer must be 16 bytes (e.g. txl.smem_alloc([4], dtype=tl.int32)), got shared buffer <[2], int32>
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    resp = txl.get_buffer(txl.smem_alloc([2], dtype=tl.int32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.clc_try_cancel(resp, bar)
