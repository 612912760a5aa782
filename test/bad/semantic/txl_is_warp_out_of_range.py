# expect: 9:8: error: is_warp id 8 is out of range: the kernel is launched with 4 warp(s), and roles may add at most 4 more (ids below 8)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    if txl.is_warp([8]):
        tl.store(p, 1.0)
