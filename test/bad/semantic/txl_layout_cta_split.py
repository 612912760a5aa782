# expect: 8:14: error: txl.BlockedLayout: ctas_per_cga=[2] splits the tensor across the CTAs of a cluster, which txl layouts do not support yet
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    layout = txl.BlockedLayout([1], [32], [4], [0], ctas_per_cga=[2])
    x = tl.load(p + tl.arange(0, 128))
    tl.store(p + tl.arange(0, 128), txl.relayout(x, [128], layout))
