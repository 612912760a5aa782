# expect: 7:1: error: 'async function definition' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
async def kernel(p, n):
    tl.store(p, 1.0)
