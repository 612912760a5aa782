# expect: 13:5: error: txl.dotx: with two_ctas=True, a must be a shared buffer (this CTA's 128 rows of A)
# kernel: kernel
# signature: *fp32
# target: sm_100a
# num-ctas: 2
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.tmem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0)
    txl.dotx(a, b, acc, two_ctas=True)
