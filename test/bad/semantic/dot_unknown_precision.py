# expect: 10:9: error: input_precision must be 'tf32', 'tf32x3', 'ieee', 'bf16x3' or 'bf16x6', got 'fp8x2'
# kernel: kernel
# signature: *fp32, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p, q):
    a = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    b = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b, input_precision="fp8x2")
    tl.store(q + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)
