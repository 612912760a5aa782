# expect: 9:11: error: txl.tmem_alloc: shape [32, 128] must be [128, N] or [64, N] with N a power of two (one row per tensor-memory lane, N >= 1)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.tmem_alloc([32, 128], dtype=tl.float32)
