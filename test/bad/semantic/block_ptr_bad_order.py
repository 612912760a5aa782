# expect: 8:9: error: tl.make_block_ptr: order must be a permutation of 0..1
# kernel: kernel
# signature: *fp32:16, i32
import triton.language as tl
import txl
@txl.jit
def kernel(x, n):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 1))
