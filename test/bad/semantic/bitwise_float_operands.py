# Bitwise operators need integers (Triton's wording, which its tests match).
# kernel: k
# signature: *fp32:16
# expect: 9:20: error: invalid operands of type fp32 and fp32 for & (it needs integers)
import triton.language as tl
import triton
@triton.jit
def k(X):
    z = tl.load(X) & tl.load(X + 1)
    tl.store(X, z)
