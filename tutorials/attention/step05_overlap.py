"""Attention ladder, step 5: intra-warpgroup overlap -- S_{j+1} is on the
tensor core while the softmax of block j runs on the CUDA cores.

Step 4 overlaps one consumer's softmax with the *other* consumer's GEMMs.
Within one warpgroup everything is still serial: issue the GEMMs, wait
for all of them, softmax, repeat. But wgmma is asynchronous, and a wait
need not retire everything. Iteration j now issues, in this order,

    S_j = Q K_j^T                      (needs only K_j)
    O  = O * alpha_{j-1}               (CUDA cores, while S_j runs)
    O += P_{j-1} V_{j-1}               (P from registers)

and then `txl.dot_wait(1)`: wgmma.wait_group 1 returns once at most one
commit group is still pending. Groups retire in order, so S_j is ready
while P_{j-1} V_{j-1} may still be running -- and the softmax of block j
(max, FMA, exp2, sums) runs underneath it. `txl.dot_wait(0)` after the
softmax retires O, and only then is V_{j-1}'s stage released.

Why this order is legal: commit groups retire in issue order, so after
wait_group 1 every group but the newest -- P_{j-1} V_{j-1} -- has retired
and S_j may be read. The compiler checks this: reading a dot's result
before a dot_wait that retires it is a compile-time error (the async-dot
read check), so issuing the two dots the other way round (S_j last, then
dot_wait(1)) is rejected, not left to race. O itself is read only after
dot_wait(0). P_{j-1} stays in its registers while its wgmma runs: the
softmax of block j computes P_j into new ones (which is why P comes from
registers: a single shared P buffer would be overwritten under the
running wgmma).

Nothing else changes: ping-pong still orders the two consumers' issue
phases (now S_j and P_{j-1} V_{j-1}), block 0 is still peeled, and the
last P V follows the loop.
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
        txl.mbar_wait(txl.get_buffer(k_full, s), (j // STAGES) & 1)
        S = tl.dot(q, txl.get_buffer(sK, s).T)
        # O is rescaled while S_j runs, then O += P_{j-1} V_{j-1}.
        txl.mbar_wait(txl.get_buffer(v_full, ps), ((j - 1) // STAGES) & 1)
        acc = tl.dot(p.to(dt), txl.get_buffer(sV, ps), acc * alpha[:, None])
        turn_end(ROLE)
        txl.dot_wait(1)  # S_j has retired; P_{j-1} V_{j-1} may still run
        txl.mbar_arrive(txl.get_buffer(k_empty, s), pred=leader)
        if j >= n_full:
            S = masked(S, j, rows, seqlen, BN, CAUSAL)
        m_new = tl.maximum(m_i, tl.max(S, 1) * qk_scale)
        p = tl.exp2(tl.fma(S, qk_scale, -m_new[:, None]))
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_new
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(v_empty, ps), pred=leader)
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
def attn_step05(q_desc, k_desc, v_desc, o_ptr, seqlen, num_heads, qk_scale,
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
    attn_step05[grid](qd, kd, vd, o, S, H, scale * LOG2E, D=D,
                      STAGES=STAGES[D], CAUSAL=bool(causal), num_warps=4,
                      num_warpgroups=3)
    return o
