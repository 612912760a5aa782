# expect: 8:8: error: is_warpgroup id 1 is out of range: the kernel is launched with 1 warpgroup(s)
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    if txl.is_warpgroup([0, 1]):
        tl.store(q, 1.0)
