# expect: 9:5: error: txl.prefetch_l2: ptr must be a scalar pointer into global memory, got <[16], pointer<bf16>>
# kernel: kernel
# signature: *bf16:16
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    # One prefetch names one range: a tensor of pointers is refused.
    txl.prefetch_l2(p + tl.arange(0, 16) * 64, 128)
