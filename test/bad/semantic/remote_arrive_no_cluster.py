# expect: 8:5: error: txl.mbar_arrive: cta_id names a CTA of the cluster, but the kernel is launched with num_ctas = 1
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.mbar_arrive(txl.get_buffer(txl.mbar_alloc(1), 0), cta_id=1)
