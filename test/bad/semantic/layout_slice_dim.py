# expect: 8:5: error: txl layout (slice): dim 5 is not a dimension of a rank-2 parent of rank >= 2
# kernel: kernel
# signature: 
import triton.language as tl
import txl
@txl.jit
def kernel():
    txl.print_layout([16], tl.float32, txl.SliceLayout(5, txl.BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0])))
