# expect: 9:5: error: Cannot store to a constant pointer (a parameter annotated tl.const)
# kernel: kernel
# signature: *fp32, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(src: tl.const, dst):
    offs = tl.arange(0, 64)
    tl.store(src + offs, tl.load(src + offs))
