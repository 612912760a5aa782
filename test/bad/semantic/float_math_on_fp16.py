# expect: 8:9: error: tl.exp: expected dtype ['fp32', 'fp64'] but got fp16
# kernel: kernel
# signature: *fp16
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    y = tl.exp(tl.load(p))
    tl.store(p, y)
