# expect: 10:20: error: a tensor of shape [4096, 4096] would have more than 1048576 elements
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    a = tl.arange(0, 4096)
    b = tl.arange(0, 4096)
    c = a[:, None] + b[None, :]
    tl.store(p + c, c)
