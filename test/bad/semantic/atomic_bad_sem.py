# expect: 8:9: error: tl.atomic_add: sem must be one of 'acquire', 'release', 'acq_rel', 'relaxed', got seq_cst
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    o = tl.atomic_add(p, 1, sem="seq_cst")
