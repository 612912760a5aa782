# expect: 9:9: error: tl.sort: only the minor (last) dimension is supported, got dim=0
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    r = tl.arange(0, 16)
    y = tl.sort(tl.load(x + r[:, None] * 16 + r[None, :]), 0)
