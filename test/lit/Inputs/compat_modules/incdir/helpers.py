import triton
import triton.language as tl

WIDTH = 2


@triton.jit
def twice(x):
    return x * WIDTH
