"""Kernels for test_layouts.py: txl layout classes, relayout and
print_layout."""
import triton.language as tl
import txl


@txl.jit
def relayout_roundtrip(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    # Values survive a trip through explicit layouts (a blocked layout with
    # columns across lanes, then one with rows across lanes) and a reshape.
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    by_cols = txl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    by_rows = txl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    a = txl.relayout(x, [M, N], by_cols)
    b = txl.relayout(a * 2.0, [M, N], by_rows)
    flat = txl.relayout(b + 1.0, [M * N], txl.SliceLayout(
        0, txl.BlockedLayout([1, 4], [1, 32], [1, 4], [1, 0])))
    tl.store(y_ptr + tl.arange(0, M * N), flat)


@txl.jit
def show_layouts():
    txl.print_layout([4, 8], tl.float32,
                     txl.BlockedLayout([1, 2], [4, 8], [1, 1], [1, 0]))
    txl.print_layout([16, 8], tl.float32,
                     txl.NVMMADistributedLayout([2, 0], [1, 1], [16, 8]))


@txl.jit
def wrong_warps():
    # Two warps in a four-warp kernel.
    txl.print_layout([16, 16], tl.float32,
                     txl.BlockedLayout([1, 1], [4, 8], [2, 1], [1, 0]))


@txl.jit
def fragment_io(x_ptr, y_ptr, lo, M: tl.constexpr, N: tl.constexpr):
    # A tile through shared memory in explicit layouts: stored by columns,
    # read back by rows; the store keeps the old (zero) elements where
    # x < lo, the load returns -1 where the column index is odd.
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    buf = txl.get_buffer(txl.smem_alloc([M, N], dtype=tl.float32), 0)
    txl.smem_store(buf, tl.zeros([M, N], dtype=tl.float32))
    by_cols = txl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    by_rows = txl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    txl.frag_smem_store(buf, x, by_cols, pred=x >= lo)
    y = txl.frag_smem_load(buf, [M, N], by_rows, other=-1.0,
                           pred=cols % 2 == 0)
    tl.store(y_ptr + rows * N + cols, y)


@txl.jit
def slice_owner_store(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
                      WRITERS: tl.constexpr):
    # The TXL project's frag_smem_store(predStr="slice:1", pred=...): a
    # value broadcast along dim 1 ([M, N], every row constant) goes into a
    # [M] buffer in a row layout that gives each row to 8 lanes; the scalar
    # predicate picks which threads write. WRITERS: 0 lane 0 of each row
    # (all rows written once), 1 the even warps only (rows (r // 4) % 2 == 0
    # of each 16), 2 nobody (the buffer keeps its -5).
    tid = txl.tid(0)
    rows = tl.arange(0, M)
    x = tl.load(x_ptr + rows)
    wide = tl.broadcast_to(x[:, None], (M, N))
    buf = txl.get_buffer(txl.smem_alloc([M], dtype=tl.float32), 0)
    txl.smem_store(buf, tl.full([M], -5.0, tl.float32))
    parent: tl.constexpr = txl.BlockedLayout([1, 1], [4, 8], [4, 1], [1, 0])
    by_row: tl.constexpr = txl.SliceLayout(dim=1, parent=parent)
    if WRITERS == 0:
        pred = tid % 8 == 0
    elif WRITERS == 1:
        pred = (tid // 32) % 2 == 0
    else:
        pred = tid > 100000
    txl.frag_smem_store(buf, wide, by_row, pred=pred, predStr="slice:1")
    tl.store(y_ptr + rows, txl.smem_load(buf))
