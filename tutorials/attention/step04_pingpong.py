"""Attention ladder, step 4: inter-warpgroup ping-pong -- the two
consumers take turns on the tensor core, so one's softmax runs under the
other's GEMMs.

In step 3 both consumers issue their wgmmas whenever they get to them;
each spends a large share of an iteration on the softmax (max, exp2 and
sums on the CUDA cores and the SFU), and if both do that at the same time
the tensor core idles. Two changes:

The loop is rotated so that the GEMMs of one iteration are issued
together. Block 0's S and softmax are peeled off; iteration j issues
O += P_{j-1} V_{j-1} and S_j = Q K_j^T back to back, waits for both, and
then runs the softmax of block j; the last P V follows the loop.

Named barriers order the turns. `txl.bar_wait(id, 256)` (bar.sync) blocks
until 256 threads -- both consumers -- have reached barrier `id`;
`txl.bar_arrive(id, 256)` (bar.arrive) counts the caller's 128 without
waiting. Consumer r issues its GEMMs between `bar_wait(8 + r)` and
`bar_arrive(9 - r)`: it waits until the other consumer has handed over,
issues, and hands over in turn. So the two alternate strictly: while
consumer 0 runs its softmax, consumer 1's wgmmas have the tensor core,
and the other way round. Consumer 1 starts with one arrive on barrier 8
(consumer 0 goes first) and consumer 0 ends with one extra wait on it, so
each barrier sees the same number of waits and arrivals from both sides.
Barriers 0 (the CTA's __syncthreads) and 15 - wg (the compiler's
per-warpgroup barriers, e.g. for layout conversions) are not used for
this; 8 and 9 are free.
"""
import triton.language as tl
import txl

LOG2E = 1.4426950408889634
HM, BN = 64, 128  # query rows per consumer, keys per block
BM = 2 * HM
STAGES = {64: 3, 128: 2}  # K/V ring depth per head dim


@txl.jit
def produce(sQ, sK, sV, q_full, k_full, v_full, k_empty, v_empty, q_desc,
            k_desc, v_desc, q_row, k_row, col, n_blocks, HM: tl.constexpr,
            BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr):
    ELEM: tl.constexpr = q_desc.dtype.primitive_bitwidth // 8
    txl.mbar_expect(q_full, 2 * HM * D * ELEM)
    txl.tma_load(txl.get_buffer(sQ, 0), q_desc, [q_row, col], q_full)
    txl.tma_load(txl.get_buffer(sQ, 1), q_desc, [q_row + HM, col], q_full)
    for j in range(n_blocks):
        s = j % STAGES
        free_phase = ((j // STAGES) & 1) ^ 1
        txl.mbar_wait(txl.get_buffer(k_empty, s), free_phase)
        bar = txl.get_buffer(k_full, s)
        txl.mbar_expect(bar, BN * D * ELEM)
        txl.tma_load(txl.get_buffer(sK, s), k_desc, [k_row + j * BN, col], bar)
        txl.mbar_wait(txl.get_buffer(v_empty, s), free_phase)
        bar = txl.get_buffer(v_full, s)
        txl.mbar_expect(bar, BN * D * ELEM)
        txl.tma_load(txl.get_buffer(sV, s), v_desc, [k_row + j * BN, col], bar)


@txl.jit
def turn_begin(ROLE: tl.constexpr):
    """Wait until the other consumer has issued its GEMMs."""
    txl.bar_wait(8 + ROLE, 256)


@txl.jit
def turn_end(ROLE: tl.constexpr):
    """Our GEMMs are issued: the other consumer's turn."""
    txl.bar_arrive(9 - ROLE, 256)


@txl.jit
def masked(S, j, rows, seqlen, BN: tl.constexpr, CAUSAL: tl.constexpr):
    keys = j * BN + tl.arange(0, BN)
    keep = keys[None, :] < seqlen
    if CAUSAL:
        keep = keep & (keys[None, :] <= rows[:, None])
    return tl.where(keep, S, float("-inf"))


@txl.jit
def consume(q, sK, sV, k_full, v_full, k_empty, v_empty, o_ptr, row, col,
            q0, seqlen, row_stride, n_blocks, qk_scale, HM: tl.constexpr,
            BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr,
            CAUSAL: tl.constexpr, ROLE: tl.constexpr):
    """Rows q0 .. q0 + HM - 1 of the sequence against blocks 0 ..
    n_blocks - 1 (n_blocks >= 1); ROLE is 0 or 1."""
    leader = txl.tid(0) % 128 == 0
    rows = q0 + tl.arange(0, HM)
    n_full = seqlen // BN
    if CAUSAL:
        n_full = tl.minimum(n_full, (q0 + 1) // BN)
    dt = q.dtype
    acc = tl.zeros([HM, D], dtype=tl.float32)
    if ROLE == 1:
        turn_end(ROLE)  # consumer 0 goes first
    # Block 0: S_0 and its softmax.
    turn_begin(ROLE)
    txl.mbar_wait(txl.get_buffer(k_full, 0), 0)
    S = tl.dot(q, txl.get_buffer(sK, 0).T)
    turn_end(ROLE)
    txl.dot_wait(0)
    txl.mbar_arrive(txl.get_buffer(k_empty, 0), pred=leader)
    if n_full < 1:
        S = masked(S, 0, rows, seqlen, BN, CAUSAL)
    m_i = tl.max(S, 1) * qk_scale
    p = tl.exp2(tl.fma(S, qk_scale, -m_i[:, None]))
    l_i = tl.sum(p, 1)
    alpha = l_i * 0.0 + 1.0  # O is zero: any finite factor will do
    for j in range(1, n_blocks):
        s = j % STAGES
        ps = (j - 1) % STAGES
        turn_begin(ROLE)
        # O += P_{j-1} V_{j-1}, then S_j = Q K_j^T, issued back to back.
        txl.mbar_wait(txl.get_buffer(v_full, ps), ((j - 1) // STAGES) & 1)
        acc = tl.dot(p.to(dt), txl.get_buffer(sV, ps), acc * alpha[:, None])
        txl.mbar_wait(txl.get_buffer(k_full, s), (j // STAGES) & 1)
        S = tl.dot(q, txl.get_buffer(sK, s).T)
        turn_end(ROLE)
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(v_empty, ps), pred=leader)
        txl.mbar_arrive(txl.get_buffer(k_empty, s), pred=leader)
        if j >= n_full:
            S = masked(S, j, rows, seqlen, BN, CAUSAL)
        m_new = tl.maximum(m_i, tl.max(S, 1) * qk_scale)
        p = tl.exp2(tl.fma(S, qk_scale, -m_new[:, None]))
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_new
    # The last block's P V.
    last = n_blocks - 1
    turn_begin(ROLE)
    txl.mbar_wait(txl.get_buffer(v_full, last % STAGES),
                  (last // STAGES) & 1)
    acc = tl.dot(p.to(dt), txl.get_buffer(sV, last % STAGES),
                 acc * alpha[:, None])
    turn_end(ROLE)
    txl.dot_wait(0)
    txl.mbar_arrive(txl.get_buffer(v_empty, last % STAGES), pred=leader)
    if ROLE == 0:
        turn_begin(ROLE)  # consumer 1's last hand-over
    out = (acc * tl.fdiv(1.0, l_i)[:, None]).to(dt)
    cols = tl.arange(0, D)
    offs = (row + rows)[:, None] * row_stride + col + cols[None, :]
    tl.store(o_ptr + offs, out, mask=rows[:, None] < seqlen)


@txl.jit
def attn_step04(q_desc, k_desc, v_desc, o_ptr, seqlen, num_heads, qk_scale,
                D: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr):
    HM: tl.constexpr = 64
    BN: tl.constexpr = 128
    dt = q_desc.dtype
    m0 = tl.program_id(0) * 2 * HM
    bh = tl.program_id(1)
    row = (bh // num_heads) * seqlen
    col = (bh % num_heads) * D
    n_blocks = tl.cdiv(seqlen, BN)
    if CAUSAL:
        n_blocks = tl.cdiv(tl.minimum(seqlen, m0 + 2 * HM), BN)
    sQ = txl.smem_alloc([HM, D], dtype=dt, num_stages=2)
    sK = txl.smem_alloc([BN, D], dtype=dt, num_stages=STAGES)
    sV = txl.smem_alloc([BN, D], dtype=dt, num_stages=STAGES)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    k_full = txl.mbar_alloc(1, num_stages=STAGES)
    v_full = txl.mbar_alloc(1, num_stages=STAGES)
    k_empty = txl.mbar_alloc(2, num_stages=STAGES)
    v_empty = txl.mbar_alloc(2, num_stages=STAGES)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        produce(sQ, sK, sV, q_full, k_full, v_full, k_empty, v_empty, q_desc,
                k_desc, v_desc, row + m0, row, col, n_blocks, HM, BN, D,
                STAGES)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(240)
        txl.mbar_wait(q_full, 0)
        consume(txl.get_buffer(sQ, 0), sK, sV, k_full, v_full, k_empty,
                v_empty, o_ptr, row, col, m0, seqlen, num_heads * D,
                n_blocks, qk_scale, HM, BN, D, STAGES, CAUSAL, 0)
    if txl.is_warpgroup([2]):
        txl.reg_alloc(240)
        txl.mbar_wait(q_full, 0)
        consume(txl.get_buffer(sQ, 1), sK, sV, k_full, v_full, k_empty,
                v_empty, o_ptr, row, col, m0 + HM, seqlen, num_heads * D,
                n_blocks, qk_scale, HM, BN, D, STAGES, CAUSAL, 1)


def descriptors(q, k, v):
    B, S, H, D = q.shape
    return (txl.TensorDescriptor.from_tensor(q.view(B * S, H * D), [HM, D]),
            txl.TensorDescriptor.from_tensor(k.view(B * S, H * D), [BN, D]),
            txl.TensorDescriptor.from_tensor(v.view(B * S, H * D), [BN, D]))


def attention(q, k, v, causal=False, sm_scale=None, out=None):
    """O for q, k, v [batch, seqlen, heads, head_dim] (64 or 128), into
    `out` (contiguous, q's shape and type) if given."""
    import torch
    B, S, H, D = q.shape
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q) if out is None else out
    scale = sm_scale if sm_scale is not None else D ** -0.5
    qd, kd, vd = descriptors(q, k, v)
    grid = ((S + BM - 1) // BM, B * H)
    attn_step04[grid](qd, kd, vd, o, S, H, scale * LOG2E, D=D,
                      STAGES=STAGES[D], CAUSAL=bool(causal), num_warps=4,
                      num_warpgroups=3)
    return o
