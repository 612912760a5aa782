# expect: 8:9: error: txl.relayout: layout must be a txl layout
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    x = txl.relayout(tl.zeros([16, 16], dtype=tl.float32), [16, 16], [1, 0])
    tl.store(p, tl.sum(tl.sum(x, 0), 0))
