# expect: 1:1: error: kernel 'kernel' not found in kernel_not_found.py
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def other_kernel(p):
    pass
