# expect: 8:11: error: tl.program_id axis must be 0, 1, or 2 but got 20
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    pid = tl.program_id(20)
    tl.store(p, pid)
