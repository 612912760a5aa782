# expect: 12:11: error: tl.dot: an A operand in registers must be fp16, bf16 or fp8 (wgmma)
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    sb = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    a = tl.load(p + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :])
    acc = tl.zeros([64, 64], dtype=tl.float32)
    # A from registers must be 16-bit or fp8, in B's type.
    acc = tl.dot(a, sb, acc)
