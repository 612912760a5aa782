# expect: 10:9: error: loop-carried variable 'acc' changes type from fp32 to <[64], fp32>
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    acc = 0.0
    for i in range(n):
        acc = acc + tl.load(p + tl.arange(0, 64))
    tl.store(p, acc)
