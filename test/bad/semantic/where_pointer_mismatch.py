# expect: 8:9: error: where: operands have different types pointer<fp32> and pointer<int32>
# kernel: kernel
# signature: *fp32, *i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(A, B, c):
    p = tl.where(c > 0, A, B)
