"""Attention ladder, step 3: warp specialization -- a producer warpgroup
that only issues TMA, and consumer warpgroups that only compute.

In step 2 one warpgroup issues the loads and the wgmmas in program order,
so the next loads are requested only when the loop comes round to them.
Here the CTA has three warpgroups (num_warps=4, num_warpgroups=3: 384
threads) and BM = 128 query rows, each running its own program:

- warpgroup 0, the PRODUCER: both 64-row halves of Q once (on `q_full`),
  then K_j and V_j for every block into a STAGES-deep ring, each as soon
  as the consumers have freed its stage;
- warpgroups 1 and 2, the CONSUMERS, each own 64 of the query rows (one
  wgmma M-tile) and run step 2's loop body on them, against the same K/V
  stages. BN = BM = 128, so every block a causal CTA visits holds a key
  that each of its rows sees: a row's running max is finite after block 0.

`if txl.is_warpgroup([i]):` is true for the 128 threads of warpgroup i;
each branch is one role's whole program. The roles never meet in a
CTA-wide barrier after the set-up.

Four barrier kinds per stage, each a txl.mbar_alloc:

    k_full[s], v_full[s]    producer -> consumers   1 arrival (the expect)
                                                    + the TMA bytes
    k_empty[s], v_empty[s]  consumers -> producer   2 arrivals: one thread
                                                    of each consumer

K and V have their own barriers: a consumer starts Q K_j^T as soon as K_j
has landed, and frees K_j as soon as S_j has retired -- a whole softmax
and P V earlier than V_j. The producer waits `empty` with the flipped
parity ((j // STAGES) & 1) ^ 1, so its first pass over the ring does not
block (a fresh barrier counts as having completed the phase of parity 1).
A consumer arrives (`pred=` one thread) only after its own `dot_wait(0)`
has retired the wgmma that read the stage.

Registers. 384 threads start with 65536 / 384 -> 168 registers each; the
producer gives most back (`txl.reg_dealloc(24)`, setmaxnreg.dec) and the
consumers take them (`txl.reg_alloc(240)`): 128 * (24 + 240 + 240) =
64512 <= 65536. A consumer holds S (64 fp32 registers per thread), O (64
at D = 128) and P (32). Kernels with setmaxnreg are assembled by ptxas
(nvJitLink ignores it).

The epilogue divides by l with `tl.fdiv` (approximate): an IEEE division
calls a slow-path subroutine, and a call in the kernel makes the
assembler serialize the wgmmas.
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
def consume(q, sK, sV, k_full, v_full, k_empty, v_empty, o_ptr, row, col,
            q0, seqlen, row_stride, n_blocks, qk_scale, HM: tl.constexpr,
            BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr,
            CAUSAL: tl.constexpr):
    """Rows q0 .. q0 + HM - 1 of the sequence against blocks 0 ..
    n_blocks - 1."""
    leader = txl.tid(0) % 128 == 0
    rows = q0 + tl.arange(0, HM)
    n_full = seqlen // BN
    if CAUSAL:
        n_full = tl.minimum(n_full, (q0 + 1) // BN)
    m_i = tl.full([HM], float("-inf"), tl.float32)
    l_i = tl.zeros([HM], dtype=tl.float32)
    acc = tl.zeros([HM, D], dtype=tl.float32)
    for j in range(0, n_blocks):
        s = j % STAGES
        phase = (j // STAGES) & 1
        txl.mbar_wait(txl.get_buffer(k_full, s), phase)
        S = tl.dot(q, txl.get_buffer(sK, s).T)
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(k_empty, s), pred=leader)
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
        v = txl.get_buffer(sV, s)
        txl.mbar_wait(txl.get_buffer(v_full, s), phase)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(v_empty, s), pred=leader)
        m_i = m_new
    out = (acc * tl.fdiv(1.0, l_i)[:, None]).to(q.dtype)
    cols = tl.arange(0, D)
    offs = (row + rows)[:, None] * row_stride + col + cols[None, :]
    tl.store(o_ptr + offs, out, mask=rows[:, None] < seqlen)


@txl.jit
def attn_step03(q_desc, k_desc, v_desc, o_ptr, seqlen, num_heads, qk_scale,
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
                n_blocks, qk_scale, HM, BN, D, STAGES, CAUSAL)
    if txl.is_warpgroup([2]):
        txl.reg_alloc(240)
        txl.mbar_wait(q_full, 0)
        consume(txl.get_buffer(sQ, 1), sK, sV, k_full, v_full, k_empty,
                v_empty, o_ptr, row, col, m0 + HM, seqlen, num_heads * D,
                n_blocks, qk_scale, HM, BN, D, STAGES, CAUSAL)


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
    attn_step03[grid](qd, kd, vd, o, S, H, scale * LOG2E, D=D,
                      STAGES=STAGES[D], CAUSAL=bool(causal), num_warps=4,
                      num_warpgroups=3)
    return o
