"""Kernels for test_smem_reuse.py: shared buffers whose live ranges do not
overlap share bytes (AllocateSharedMemory), so each of these runs with
tiles, scratch and staging placed on top of each other, separated only by
the barriers the allocator relies on or inserts."""
import triton.language as tl
import txl


@txl.jit
def relayout_chain(x_ptr, out_ptr, colsum_ptr, M, N,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Two transposes through shared memory in sequence, a reduction across
    # the warps that split the rows, and a dot whose register operands are
    # staged in shared tiles: every exchange reuses the same bytes.
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask,
                other=0.0)
    xt = tl.trans(x * 2.0)
    colsum = tl.sum(x, axis=0)
    back = tl.trans(xt + 1.0)
    prod = tl.dot(back.to(tl.float16), xt.to(tl.float16))
    y = back + colsum[None, :] + tl.sum(prod, axis=1)[:, None]
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], y, mask=mask)
    tl.atomic_add(colsum_ptr + cols, colsum, mask=cols < N)


@txl.jit
def two_dots(a_ptr, b_ptr, c_ptr, out_ptr, M,
             BLOCK_M: tl.constexpr, K: tl.constexpr, N: tl.constexpr):
    # out = (a @ b).to(fp16) @ c with register operands: a and b are staged
    # in shared tiles for the first wgmma, dead once it is retired, and the
    # second dot's tiles take their bytes.
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    ks = tl.arange(0, K)
    ns = tl.arange(0, N)
    a = tl.load(a_ptr + rows[:, None] * K + ks[None, :],
                mask=rows[:, None] < M, other=0.0)
    b = tl.load(b_ptr + ks[:, None] * N + ns[None, :])
    c = tl.load(c_ptr + ns[:, None] * N + ns[None, :])
    p = tl.dot(a, b)
    q = tl.dot(p.to(tl.float16), c)
    tl.store(out_ptr + rows[:, None] * N + ns[None, :], q,
             mask=rows[:, None] < M)


@txl.jit
def persistent_desc_matmul(a_desc, b_desc, c_desc, M, N, K,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr, NUM_PROGRAMS: tl.constexpr):
    # C = A @ B^T (B given N x K), each program walking tiles with a stride
    # of the grid. The TMA landing tiles and dot staging of the K loop and
    # the epilogue tile of the store are never live at once: at 128x256x64
    # they fit in one CTA only by sharing bytes.
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    for tile in range(pid, tiles_m * tiles_n, NUM_PROGRAMS):
        off_m = (tile // tiles_n) * BLOCK_M
        off_n = (tile % tiles_n) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(k_tiles):
            a = a_desc.load([off_m, k * BLOCK_K])
            b = b_desc.load([off_n, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(tl.float16))


@txl.jit
def normalized_dot(a_ptr, b_ptr, x_ptr, out_ptr,
                   M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # out = (a @ b) / l[:, None] with l a row statistic of another tensor
    # in another layout (FlashAttention's epilogue): the 64 values of l are
    # converted to the accumulator's layout, not the broadcast tile.
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    acc = tl.dot(a, b)
    total = tl.zeros([M], dtype=tl.float32)
    for i in range(3):
        total += tl.sum(tl.abs(x) + i, axis=1)
    out = acc / total[:, None]
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], out)
