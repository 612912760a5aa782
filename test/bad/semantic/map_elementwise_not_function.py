# expect: 9:9: error: tl.map_elementwise: scalar_fn must be a @jit function
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.map_elementwise(x, x)
