"""smem_reshape that no shared layout expresses (lit e2e/smem-reshape):
splitting the rows of a tile stored as two 128-byte column chunks."""
import triton.language as tl
import txl


@txl.jit
def wide_split(a_desc, out_ptr):
    a = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 64 * 128 * 2)
    txl.tma_load(a, a_desc, [0, 0], bar)
    txl.mbar_wait(bar, 0)
    v = txl.smem_reshape(a, [32, 2, 128])
    x = txl.smem_load(txl.smem_index(v, 0))
    r = tl.arange(0, 2)
    c = tl.arange(0, 128)
    tl.store(out_ptr + r[:, None] * 128 + c[None, :], x)
