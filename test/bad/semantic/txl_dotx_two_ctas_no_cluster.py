# expect: 11:5: error: txl.dotx: two_ctas=True (cta_group::2) pairs the CTAs of a cluster, but the kernel is launched with num_ctas = 1
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    txl.dotx(a, b, txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0), two_ctas=True)
