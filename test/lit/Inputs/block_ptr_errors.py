import triton.language as tl
import txl


@txl.jit
def masked(x_ptr, n):
    p = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))
    m = tl.arange(0, 16)[:, None] < n
    x = tl.load(p, mask=m)


@txl.jit
def bad_advance(x_ptr, n):
    p = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))
    p = tl.advance(p, (16,))
