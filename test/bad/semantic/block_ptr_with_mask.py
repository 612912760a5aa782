# expect: 9:9: error: tl.load: a block pointer takes boundary_check and padding_option, not mask and other
# kernel: kernel
# signature: *fp32:16, i32
import triton.language as tl
import txl
@txl.jit
def kernel(x, n):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))
    v = tl.load(p, mask=tl.arange(0, 16)[:, None] < n)
