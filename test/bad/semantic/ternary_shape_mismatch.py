# expect: 10:9: error: incompatible shapes [64] and [32] in a conditional expression
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(Out):
    a = tl.zeros([64], dtype=tl.float32)
    b = tl.zeros([32], dtype=tl.float32)
    v = a if tl.program_id(0) == 0 else b
