# expect: 11:11: error: tl.dot: an A operand in registers with B in shared memory is not supported yet
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    sb = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    a = tl.load(p + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float16)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    acc = tl.dot(a, sb, acc)
