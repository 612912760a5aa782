# expect: 9:9: error: 'return' inside a runtime 'if' or loop is not supported
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    if n > 4:
        return
    tl.store(p, 1.0)
