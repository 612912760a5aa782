# expect: 9:5: error: pl.enter_scope: the scope name must be a compile-time string, got tensor
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
import triton.profiler.language as pl
@triton.jit
def kernel(p, n):
    pl.enter_scope(n)
    tl.store(p, 1.0)
