# expect: 9:9: error: tl.atomic_add: block pointers are not supported; use a tensor of pointers
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    bp = tl.make_block_ptr(p, (16,), (1,), (0,), (16,), (0,))
    o = tl.atomic_add(bp, 1.0)
