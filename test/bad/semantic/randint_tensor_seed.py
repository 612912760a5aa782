# expect: 9:9: error: seed must be a scalar, got a tensor of shape [16]
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    s = tl.load(p + tl.arange(0, 16))
    r = tl.randint(s, tl.arange(0, 16))
