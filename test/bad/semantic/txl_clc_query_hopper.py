# expect: 10:11: error: txl.clc_query needs cluster launch control (sm_100 or later), but the target is sm_90a
# kernel: kernel
# signature: *i32
# target: sm_90a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    resp = txl.get_buffer(txl.smem_alloc([4], dtype=tl.int32), 0)
    pid = txl.clc_query(resp)
    tl.store(p, pid)
