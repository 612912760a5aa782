# expect: 9:5: error: desc.store: value <[64, 32], fp32> does not match the descriptor's block tensor descriptor <[64, 64], fp32>
# kernel: kernel
# signature: tensordesc<fp32[64, 64]>
import triton
import triton.language as tl
@triton.jit
def kernel(d):
    x = tl.zeros([64, 32], dtype=tl.float32)
    d.store([0, 0], x)
