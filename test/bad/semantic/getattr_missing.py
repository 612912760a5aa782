# expect: 8:10: error: 'tl.no_such_function' is not supported
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    fn = getattr(tl, "no_such_function")
