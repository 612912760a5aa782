# expect: 8:5: error: txl layout (blocked): sizes must be powers of two
# kernel: kernel
# signature: 
import triton.language as tl
import txl
@txl.jit
def kernel():
    txl.print_layout([16, 16], tl.float32, txl.BlockedLayout([1, 3], [32, 1], [4, 1], [1, 0]))
