# expect: 8:9: error: n_rounds must be in [0, 64], got 100
# kernel: kernel
# signature: i32
import triton
import triton.language as tl
@triton.jit
def kernel(seed):
    r = tl.randint(seed, tl.arange(0, 16), 100)
