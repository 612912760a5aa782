# expect: 9:18: error: tl.philox_impl: counters must be uint32 or uint64, got int32
# kernel: kernel
# signature: i32
import triton
import triton.language as tl
@triton.jit
def kernel(seed):
    c = tl.arange(0, 16)
    a, b, d, e = tl.philox_impl(c, c, c, c, seed, seed)
