# expect: 8:9: error: txl.SliceLayout: parent must be a txl layout
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    s = txl.SliceLayout(0, [1, 2])
    tl.store(p, 0.0)
