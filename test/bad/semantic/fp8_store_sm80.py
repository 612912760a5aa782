# expect: 9:5: error: converting fp16 to fp8e5 needs sm_89 or later
# kernel: kernel
# signature: *fp16, *fp8e5
# target: sm_80
import triton
import triton.language as tl
@triton.jit
def kernel(x_ptr, y_ptr):
    tl.store(y_ptr + tl.arange(0, 64), tl.load(x_ptr + tl.arange(0, 64)))
