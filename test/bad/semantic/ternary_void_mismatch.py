# expect: 8:9: error: Ternary expression with dynamic condition has inconsistent types None and int
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(Out):
    v = tl.store(Out, 1.0) if tl.program_id(0) == 0 else 2
