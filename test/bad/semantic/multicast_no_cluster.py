# expect: 10:5: error: txl.tma_load: multicast needs a cluster, but the kernel is launched with num_ctas = 1
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>
import triton.language as tl
import txl
@txl.jit
def kernel(d):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, d, [0, 0], bar, multicast=3)
