# expect: 12:5: error: txl.tma_load(two_ctas=True) needs tensor memory and tcgen05 (sm_100a), but the target is sm_90a
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>
# target: sm_90a
# num-ctas: 2
import triton.language as tl
import txl
@txl.jit
def kernel(d):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, d, [0, 0], bar, two_ctas=True)
