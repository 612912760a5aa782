"""Attention ladder, step 2: TMA loads into a ring of shared-memory stages,
completed on mbarriers.

Same computation and launch shape as step 1 (one warpgroup, BM = 64 query
rows per CTA), with BN = 128 keys per block. New:

Tensor descriptors. The host describes q, k and v as 2-D tensors
[batch * seqlen, heads * head_dim] (txl.TensorDescriptor, one box shape
each: [BM, D] for Q, [BN, D] for K and V). One thread issues
`txl.tma_load(buffer, desc, [row, col], bar)` and the copy engine moves the
whole box into a swizzled shared buffer, which wgmma reads directly: no
registers, no address arithmetic per element. A box that runs past the
tensor is zero-filled; one that runs past a *sequence* reads the next
batch's rows. So the masks stay: keys past seqlen get S = -inf, and rows
past seqlen are not stored (the store is still a masked tl.store).

mbarriers. A TMA copy completes on an mbarrier by bytes: the thread
announces the bytes it expects (`txl.mbar_expect`), the copies count
them down, and `txl.mbar_wait(bar, parity)` returns once the phase with
that parity has completed. Q is loaded once, on its own barrier (parity
0). K_j and V_j share stage j % STAGES and its barrier `kv_full`; stage s
completes one phase per use, so block j waits for parity (j // STAGES) & 1.

The ring. Blocks 0 .. STAGES-2 are requested before the loop; iteration j
requests block j + STAGES - 1 into the stage block j - 1 used -- free,
because both of block j - 1's wgmmas retired (dot_wait(0)) before
iteration j began. While the tensor cores work on block j, the copy
engine fetches up to STAGES - 1 blocks ahead.

Both dots read shared memory: S = Q K_j^T is `tl.dot(sQ, sK.T)` (the .T is
a view: K is stored [BN, D], D contiguous, which is the K-major layout
wgmma wants for B), and O += P V_j is `tl.dot(p, sV, acc)` with P a
register tensor: a register-A wgmma, P rounded to 16 bits goes straight
from S's accumulator registers into wgmma's A fragment.

Masks only where needed: a block is masked only if it holds keys past
seqlen or (CAUSAL) keys after the CTA's first query row; the others skip
the compares.
"""
import triton.language as tl
import txl

LOG2E = 1.4426950408889634
BM, BN, STAGES = 64, 128, 2


@txl.jit
def load_kv(sK, sV, kv_full, k_desc, v_desc, row, col, j,
            BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr):
    """K_j and V_j into stage j % STAGES, completing on its barrier."""
    s = j % STAGES
    bar = txl.get_buffer(kv_full, s)
    txl.mbar_expect(bar, 2 * BN * D * (k_desc.dtype.primitive_bitwidth // 8))
    txl.tma_load(txl.get_buffer(sK, s), k_desc, [row + j * BN, col], bar)
    txl.tma_load(txl.get_buffer(sV, s), v_desc, [row + j * BN, col], bar)


@txl.jit
def attn_step02(q_desc, k_desc, v_desc, o_ptr, seqlen, num_heads, qk_scale,
                D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                STAGES: tl.constexpr, CAUSAL: tl.constexpr):
    dt = q_desc.dtype
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    h = bh % num_heads
    m0 = pid_m * BM
    row = (bh // num_heads) * seqlen  # the sequence's first row
    col = h * D
    sQ = txl.get_buffer(txl.smem_alloc([BM, D], dtype=dt), 0)
    sK = txl.smem_alloc([BN, D], dtype=dt, num_stages=STAGES)
    sV = txl.smem_alloc([BN, D], dtype=dt, num_stages=STAGES)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    kv_full = txl.mbar_alloc(1, num_stages=STAGES)

    n_blocks = tl.cdiv(seqlen, BN)
    n_full = seqlen // BN  # blocks wholly inside the sequence
    if CAUSAL:
        n_blocks = tl.cdiv(tl.minimum(seqlen, m0 + BM), BN)
        # Block j is wholly visible to row m0 if (j + 1) * BN - 1 <= m0.
        n_full = tl.minimum(n_full, (m0 + 1) // BN)

    txl.mbar_expect(q_full, BM * D * (dt.primitive_bitwidth // 8))
    txl.tma_load(sQ, q_desc, [row + m0, col], q_full)
    for j in range(0, STAGES - 1):
        if j < n_blocks:
            load_kv(sK, sV, kv_full, k_desc, v_desc, row, col, j, BN, D,
                    STAGES)

    rows = m0 + tl.arange(0, BM)
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    txl.mbar_wait(q_full, 0)
    for j in range(0, n_blocks):
        if j + STAGES - 1 < n_blocks:
            load_kv(sK, sV, kv_full, k_desc, v_desc, row, col,
                    j + STAGES - 1, BN, D, STAGES)
        s = j % STAGES
        txl.mbar_wait(txl.get_buffer(kv_full, s), (j // STAGES) & 1)
        S = tl.dot(sQ, txl.get_buffer(sK, s).T)
        txl.dot_wait(0)
        if j >= n_full:
            keys = j * BN + tl.arange(0, BN)
            keep = keys[None, :] < seqlen
            if CAUSAL:
                keep = keep & (keys[None, :] <= rows[:, None])
            S = tl.where(keep, S, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(S, 1) * qk_scale)
        p = tl.exp2(tl.fma(S, qk_scale, -m_new[:, None]))
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(dt), txl.get_buffer(sV, s), acc * alpha[:, None])
        txl.dot_wait(0)
        m_i = m_new

    out = (acc / l_i[:, None]).to(dt)
    cols = tl.arange(0, D)
    offs = (row + rows)[:, None] * (num_heads * D) + col + cols[None, :]
    tl.store(o_ptr + offs, out, mask=rows[:, None] < seqlen)


def descriptors(q, k, v, bm, bn):
    """q, k, v [B, S, H, D] as 2-D TMA descriptors with boxes [bm, D] and
    [bn, D]."""
    B, S, H, D = q.shape
    return (txl.TensorDescriptor.from_tensor(q.view(B * S, H * D), [bm, D]),
            txl.TensorDescriptor.from_tensor(k.view(B * S, H * D), [bn, D]),
            txl.TensorDescriptor.from_tensor(v.view(B * S, H * D), [bn, D]))


def attention(q, k, v, causal=False, sm_scale=None, out=None):
    """O for q, k, v [batch, seqlen, heads, head_dim] (64 or 128), into
    `out` (contiguous, q's shape and type) if given."""
    import torch
    B, S, H, D = q.shape
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q) if out is None else out
    scale = sm_scale if sm_scale is not None else D ** -0.5
    qd, kd, vd = descriptors(q, k, v, BM, BN)
    grid = ((S + BM - 1) // BM, B * H)
    attn_step02[grid](qd, kd, vd, o, S, H, scale * LOG2E, D=D, BM=BM, BN=BN,
                      STAGES=STAGES, CAUSAL=bool(causal), num_warps=4)
    return o
