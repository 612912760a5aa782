# expect: 9:8: error: 'triton.profiler.language.record' is not supported in kernels
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
import triton.profiler.language as pl
@triton.jit
def kernel(p):
    pl.record("a")
    tl.store(p, 1.0)
