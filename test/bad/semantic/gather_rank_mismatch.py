# expect: 9:9: error: tl.gather: source and index tensors must have the same rank, got <[16, 16], fp32> and <[16], int32>
# kernel: kernel
# signature: *fp32, *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    y = tl.gather(x, tl.load(q + tl.arange(0, 16)), 0)
