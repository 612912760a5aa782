# expect: 9:5: error: a pl.scope object is not callable (use it in a `with`)
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
import triton.profiler.language as pl
@triton.jit
def kernel(p):
    pl.scope("a")()
    tl.store(p, 1.0)
