# expect: 8:5: error: txl.mbar_arrive: track_async_op=True arrives on a barrier of the calling CTA, so it cannot take cta_id
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.mbar_arrive(txl.get_buffer(txl.mbar_alloc(128), 0), cta_id=1, track_async_op=True)
