# expect: 8:5: error: txl layout (blocked): threads_per_warp must multiply to 32, got 16
# kernel: kernel
# signature: 
import triton.language as tl
import txl
@txl.jit
def kernel():
    txl.print_layout([16, 16], tl.float32, txl.BlockedLayout([1, 1], [16, 1], [4, 1], [1, 0]))
