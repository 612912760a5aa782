# expect: 8:9: error: desc.load: the descriptor has rank 2 but 1 offsets were given
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>, *fp16
import triton
import triton.language as tl
@triton.jit
def kernel(d, p):
    x = d.load([0])
    tl.store(p + tl.arange(0, 64), tl.sum(x, 0))
