# expect: 9:9: error: tl.cat: tensors must have the same dtype, got fp32 and int32
# kernel: kernel
# signature: *fp32, *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.cat(x, tl.load(q + tl.arange(0, 16)), can_reorder=True)
