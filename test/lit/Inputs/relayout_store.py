import triton.language as tl
import txl

ACC = txl.NVMMADistributedLayout(3, [4, 1], [16, 128, 16])


@txl.jit
def store_acc(a_desc, b_desc, c_ptr, PINNED: tl.constexpr):
    """C = A B for one 64x128 tile, stored with tl.store: from the wgmma
    accumulator's registers when PINNED, else moved to the store's
    coalesced layout first."""
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, (64 * 64 + 64 * 128) * 2)
    txl.tma_load(a, a_desc, [0, 0], bar)
    txl.tma_load(b, b_desc, [0, 0], bar)
    txl.mbar_wait(bar, 0)
    acc = tl.dot(a, b)
    txl.dot_wait(0)
    out = acc.to(tl.float16)
    if PINNED:
        out = txl.relayout(out, [64, 128], ACC)
    rows = tl.arange(0, 64)
    cols = tl.arange(0, 128)
    tl.store(c_ptr + rows[:, None] * 128 + cols[None, :], out)
