# expect: 10:41: error: converting fp32 to fp8e4nv needs sm_89 or later
# kernel: kernel
# signature: *fp32, *fp8e4nv
# target: sm_80
import triton
import triton.language as tl
@triton.jit
def kernel(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 128))
    tl.store(y_ptr + tl.arange(0, 128), x.to(tl.float8e4nv))
