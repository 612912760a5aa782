# expect: 8:10: error: 'with' in a kernel takes profiler scopes only (`with pl.scope("name"):`), got int
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    with 3:
        tl.store(p, 1.0)
