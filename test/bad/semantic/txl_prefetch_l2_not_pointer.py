# expect: 8:5: error: txl.prefetch_l2: ptr must be a scalar pointer into global memory, got int32
# kernel: kernel
# signature: *bf16:16, i32
import triton.language as tl
import txl
@txl.jit
def kernel(p, off):
    txl.prefetch_l2(off, 128)
