# expect: 10:13: error: 'break' is not supported
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    for i in range(n):
        if i == 3:
            break
        tl.store(p + i, 0.0)
