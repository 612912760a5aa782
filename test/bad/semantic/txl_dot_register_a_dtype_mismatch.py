# expect: 11:11: error: tl.dot: A in registers has type
# kernel: kernel
# signature: *bf16:16, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    sb = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    a = tl.load(p + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :])
    acc = tl.zeros([64, 64], dtype=tl.float32)
    acc = tl.dot(a, sb, acc)
