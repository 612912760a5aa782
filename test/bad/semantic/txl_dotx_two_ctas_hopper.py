# expect: 12:5: error: txl.dotx needs tensor memory and tcgen05 (sm_100a), but the target is sm_90a
# kernel: kernel
# signature: *fp32
# target: sm_90a
# num-ctas: 2
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    txl.dotx(a, b, a, two_ctas=True)
