# expect: 8:9: error: tl.load() got an unexpected keyword argument 'masks'
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p, masks=None)
