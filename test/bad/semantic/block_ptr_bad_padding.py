# expect: 9:9: error: tl.load: padding_option must be "zero" or "nan", got 'one'
# kernel: kernel
# signature: *fp32:16, i32
import triton.language as tl
import txl
@txl.jit
def kernel(x, n):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))
    v = tl.load(p, boundary_check=(0, 1), padding_option="one")
