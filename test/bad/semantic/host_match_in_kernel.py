# expect: 8:5: error: 'match statement' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    match n:
        case 1:
            tl.store(p, 1.0)
        case _:
            pass
