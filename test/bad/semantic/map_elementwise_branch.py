# expect: 9:8: error: the condition of an 'if' must be a scalar, got <[16], int1>
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl

@triton.jit
def relu_scalar(x):
    if x > 0:
        return x
    return 0.0

@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.map_elementwise(relu_scalar, x)
