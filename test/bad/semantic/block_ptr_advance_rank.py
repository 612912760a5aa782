# expect: 9:9: error: tl.advance: 1 offsets for a block pointer of rank 2
# kernel: kernel
# signature: *fp32:16, i32
import triton.language as tl
import txl
@txl.jit
def kernel(x, n):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))
    p = tl.advance(p, (16,))
