# expect: 8:9: error: Ternary expression with dynamic condition has inconsistent types pointer<fp32> and pointer<int32>
# kernel: kernel
# signature: *fp32, *i32, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(A, B, Out):
    p = A if tl.program_id(0) == 0 else B
    tl.store(Out, tl.load(p))
