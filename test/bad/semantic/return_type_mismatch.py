# expect: 8:5: error: Return type mismatch: the function returns int32 when this condition holds but fp32 when it does not
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def pick(x, flag):
    if flag:
        return x
    return 1.5
@triton.jit
def kernel(p, n):
    tl.store(p, pick(n, n > 2))
