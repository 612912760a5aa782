# expect: 9:14: error: zip() in a kernel needs a compile-time tuple or list, got tensor
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    for a in zip(x, (1, 2)):
        pass
