# expect: 8:9: error: val argument cannot be a block if the pointer argument is not a block
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    o = tl.atomic_add(p, tl.arange(0, 16).to(tl.float32))
