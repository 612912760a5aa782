# expect: 11:5: error: txl.tma_load: two_ctas=True (cta_group::2) pairs the CTAs of a cluster, but the kernel is launched with num_ctas = 1
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(d):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, d, [0, 0], bar, two_ctas=True)
