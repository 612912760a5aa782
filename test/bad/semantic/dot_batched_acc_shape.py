# expect: 11:9: error: tl.dot: acc must be a [2, 2, 32, 32] tensor
# kernel: kernel
# signature: *fp16, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 4096)).reshape(2, 2, 32, 32)
    b = tl.load(p + tl.arange(0, 4096)).reshape(2, 2, 32, 32)
    acc = tl.zeros((4, 32, 32), tl.float32)
    c = tl.dot(a, b, acc)
    tl.store(q + tl.arange(0, 4096), c.reshape(4096))
