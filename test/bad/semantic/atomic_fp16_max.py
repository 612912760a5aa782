# expect: 8:9: error: atomic_max does not support fp16 (only atomic_add has 16-bit float forms)
# kernel: kernel
# signature: *fp16
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    o = tl.atomic_max(p + tl.arange(0, 16), 1.0)
