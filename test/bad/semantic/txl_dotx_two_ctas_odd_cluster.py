# expect: 12:5: error: txl.dotx: two_ctas=True (cta_group::2) pairs CTAs 2i and 2i + 1 of a cluster, so num_ctas must be even, got 3
# kernel: kernel
# signature: *fp32
# target: sm_100a
# num-ctas: 3
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    txl.dotx(a, b, txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0), two_ctas=True)
