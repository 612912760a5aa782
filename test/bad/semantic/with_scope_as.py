# expect: 9:31: error: 'with pl.scope(...) as NAME' binds nothing in a kernel
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
import triton.profiler.language as pl
@triton.jit
def kernel(p):
    with pl.scope("store") as s:
        tl.store(p, 1.0)
