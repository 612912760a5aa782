# expect: 9:9: error: unsupported operand type for minimum: a
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    x = tl.minimum(txl.mbar_alloc(1), 1)
    tl.store(p, x)
