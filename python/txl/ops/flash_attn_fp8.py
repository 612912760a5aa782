"""FlashAttention forward on fp8 e4m3 inputs, written in txl: step 6 of
the attention ladder (tutorials/attention/step06_fp8.py) with the
features txl.ops needs.

    O = softmax((dq Q)(dk K)^T * scale [+ causal mask]) (dv V),  bf16
    LSE = log(sum(exp(...)))                                     fp32

q, k: [batch, seqlen, heads, head_dim] float8_e4m3fn; V comes transposed
(vt: [batch, kv_heads, head_dim, seqlen_k padded to 16], the K-major
layout 8-bit wgmma needs for P V; the launcher makes it); head_dim 64 or
128; GQA (query head h reads kv head h // group); any seqlen_q, seqlen_k,
causal bottom-right aligned as in flash_attn.py.

The schedule is flash_attn.py's (one producer warpgroup, two consumers of
64 query rows, ping-pong on named barriers 8 and 9, S_j issued before
O += P_{j-1} V_{j-1} and retired by dot_wait(1) so the softmax of block j
runs under the P V wgmma) with the step-6 changes: the descales folded into
qk_scale (dq * dk) and the epilogue (dv), and P rounded to e4m3 and stored
into a per-consumer shared buffer for the P V wgmma (txl's register-A
wgmma takes 16-bit A only). The mask and softmax helpers are
flash_attn.py's. Masks are applied from the first block some row of the
CTA must not see in full (the diagonal, the ragged end) on; blocks above
the diagonal are never loaded, and rows that see no key get O = 0 and
LSE = -inf.
"""
import triton.language as tl
import txl

from .flash_attn import (mask_scores, release, softmax_first, softmax_step,
                         turn_begin, turn_end)


@txl.jit
def produce_fp8(q_bufs, k_bufs, vt_bufs, q_full, k_full, v_full, k_empty,
                v_empty, q_desc, k_desc, vt_desc, q_row, k_row, q_col,
                kv_col, vt_row, n_blocks, HM: tl.constexpr, BN: tl.constexpr,
                D: tl.constexpr, STAGES: tl.constexpr):
    """Both Q tiles once; K_j ([BN, D] at row k_row + j*BN) and V_j^T
    ([D, BN] at row vt_row, column j*BN) into the ring."""
    txl.mbar_expect(q_full, 2 * HM * D)
    txl.tma_load(txl.get_buffer(q_bufs, 0), q_desc, [q_row, q_col], q_full)
    txl.tma_load(txl.get_buffer(q_bufs, 1), q_desc, [q_row + HM, q_col],
                 q_full)
    for j in range(n_blocks):
        s = j % STAGES
        free_phase = ((j // STAGES) & 1) ^ 1
        txl.mbar_wait(txl.get_buffer(k_empty, s), free_phase)
        kb = txl.get_buffer(k_full, s)
        txl.mbar_expect(kb, BN * D)
        txl.tma_load(txl.get_buffer(k_bufs, s), k_desc,
                     [k_row + j * BN, kv_col], kb)
        txl.mbar_wait(txl.get_buffer(v_empty, s), free_phase)
        vb = txl.get_buffer(v_full, s)
        txl.mbar_expect(vb, BN * D)
        txl.tma_load(txl.get_buffer(vt_bufs, s), vt_desc, [vt_row, j * BN],
                     vb)


@txl.jit
def scores_fp8(q, k_bufs, k_full, j, STAGES: tl.constexpr):
    s = j % STAGES
    txl.mbar_wait(txl.get_buffer(k_full, s), (j // STAGES) & 1)
    return tl.dot(q, txl.get_buffer(k_bufs, s).T)


@txl.jit
def pv_fp8(acc, p, p_buf, vt_bufs, v_full, j, STAGES: tl.constexpr):
    """O += P_j V_j: P rounded to e4m3 into this consumer's buffer (the
    previous P V read of it has retired), V_j^T's stage as K-major B."""
    txl.smem_store(p_buf, p.to(p_buf.dtype))
    s = j % STAGES
    txl.mbar_wait(txl.get_buffer(v_full, s), (j // STAGES) & 1)
    return tl.dot(p_buf, txl.get_buffer(vt_bufs, s).T, acc)


@txl.jit
def consume_fp8(q, p_buf, k_bufs, vt_bufs, k_full, v_full, k_empty, v_empty,
                o_ptr, lse_ptr, q_start, row0, o_row_stride, o_col, lse_base,
                seqlen_q, seqlen_k, causal_shift, n_full, n_blocks, qk_scale,
                descale_v, HM: tl.constexpr, BN: tl.constexpr,
                D: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr,
                ROLE: tl.constexpr):
    leader = txl.tid(0) % 128 == 0
    rows = q_start + tl.arange(0, HM)
    m_i = tl.full([HM], float("-inf"), tl.float32)
    l_i = tl.zeros([HM], dtype=tl.float32)
    acc = tl.zeros([HM, D], dtype=tl.float32)
    if ROLE == 1:
        turn_end(ROLE, True)  # consumer 0 goes first
    if n_blocks > 0:
        turn_begin(ROLE, True)
        S = scores_fp8(q, k_bufs, k_full, 0, STAGES)
        turn_end(ROLE, True)
        txl.dot_wait(0)
        release(k_empty, 0, leader, STAGES)
        if n_full < 1:
            S = mask_scores(S, 0, rows, 0, seqlen_k, causal_shift, 0, BN,
                            CAUSAL, False)
        p, m_i, l_i = softmax_first(S, qk_scale)
        alpha = l_i * 0.0 + 1.0
        for j in range(1, n_blocks):
            turn_begin(ROLE, True)
            S = scores_fp8(q, k_bufs, k_full, j, STAGES)
            acc = pv_fp8(acc * alpha[:, None], p, p_buf, vt_bufs, v_full,
                         j - 1, STAGES)
            turn_end(ROLE, True)
            txl.dot_wait(1)  # S_j has retired; P_{j-1} V_{j-1} runs on
            release(k_empty, j, leader, STAGES)
            if j >= n_full:
                S = mask_scores(S, j, rows, 0, seqlen_k, causal_shift, 0, BN,
                                CAUSAL, False)
            p, alpha, m_i, l_i = softmax_step(S, m_i, l_i, qk_scale)
            txl.dot_wait(0)
            release(v_empty, j - 1, leader, STAGES)
        turn_begin(ROLE, True)
        acc = pv_fp8(acc * alpha[:, None], p, p_buf, vt_bufs, v_full,
                     n_blocks - 1, STAGES)
        turn_end(ROLE, True)
        txl.dot_wait(0)
        release(v_empty, n_blocks - 1, leader, STAGES)
    if ROLE == 0:
        turn_begin(ROLE, True)  # consumer 1's last hand-over
    seen = l_i > 0.0
    inv_l = tl.where(seen, tl.fdiv(1.0, l_i) * descale_v, 0.0)
    out = (acc * inv_l[:, None]).to(tl.bfloat16)
    cols = tl.arange(0, D)
    live = rows < seqlen_q
    offs = (row0 + rows)[:, None] * o_row_stride + o_col + cols[None, :]
    tl.store(o_ptr + offs, out, mask=live[:, None])
    lse = tl.where(seen, (m_i + tl.log2(l_i)) * 0.6931471805599453,
                   float("-inf"))
    tl.store(lse_ptr + lse_base + rows, lse, mask=live)


@txl.jit
def flash_fwd_fp8(q_desc, k_desc, vt_desc, o_ptr, lse_ptr, seqlen_q,
                  seqlen_k, num_heads, group, num_m_blocks, o_row_stride,
                  qk_scale, descale_v, D: tl.constexpr, BN: tl.constexpr,
                  STAGES: tl.constexpr, CAUSAL: tl.constexpr):
    """Grid: (ceil(seqlen_q / 128), batch * num_heads). q rows [batch *
    seqlen_q, num_heads * D], k rows [batch * seqlen_k, kv_heads * D],
    vt rows [batch * kv_heads * D, seqlen_k padded], o (bf16) as q, lse
    [batch, num_heads, seqlen_q] fp32; qk_scale = scale * dq * dk *
    log2(e), descale_v = dv."""
    HM: tl.constexpr = 64
    BM: tl.constexpr = 2 * HM
    dt = q_desc.dtype
    pid_m = tl.program_id(0)
    if CAUSAL:
        pid_m = num_m_blocks - 1 - pid_m  # the longest rows first
    bh = tl.program_id(1)
    b = bh // num_heads
    h = bh % num_heads
    kvh = h // group
    m0 = pid_m * BM
    causal_shift = seqlen_k - seqlen_q
    n_blocks = tl.cdiv(seqlen_k, BN)
    n_full = seqlen_k // BN
    if CAUSAL:
        last_key = m0 + BM + causal_shift  # one past the CTA's last key
        n_blocks = tl.minimum(n_blocks, tl.cdiv(tl.maximum(last_key, 0), BN))
        n_full = tl.minimum(n_full, tl.maximum(m0 + causal_shift + 1, 0) // BN)
    q_bufs = txl.smem_alloc([HM, D], dtype=dt, num_stages=2)
    k_bufs = txl.smem_alloc([BN, D], dtype=dt, num_stages=STAGES)
    vt_bufs = txl.smem_alloc([D, BN], dtype=dt, num_stages=STAGES)
    p_bufs = txl.smem_alloc([HM, BN], dtype=dt, num_stages=2)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    k_full = txl.mbar_alloc(1, num_stages=STAGES)
    v_full = txl.mbar_alloc(1, num_stages=STAGES)
    k_empty = txl.mbar_alloc(2, num_stages=STAGES)
    v_empty = txl.mbar_alloc(2, num_stages=STAGES)
    q_off = b * seqlen_q
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        produce_fp8(q_bufs, k_bufs, vt_bufs, q_full, k_full, v_full, k_empty,
                    v_empty, q_desc, k_desc, vt_desc, q_off + m0,
                    b * seqlen_k, h * D, kvh * D,
                    (b * (num_heads // group) + kvh) * D, n_blocks, HM, BN,
                    D, STAGES)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(240)
        txl.mbar_wait(q_full, 0)
        consume_fp8(txl.get_buffer(q_bufs, 0), txl.get_buffer(p_bufs, 0),
                    k_bufs, vt_bufs, k_full, v_full, k_empty, v_empty, o_ptr,
                    lse_ptr, m0, q_off, o_row_stride, h * D, bh * seqlen_q,
                    seqlen_q, seqlen_k, causal_shift, n_full, n_blocks,
                    qk_scale, descale_v, HM, BN, D, STAGES, CAUSAL, 0)
    if txl.is_warpgroup([2]):
        txl.reg_alloc(240)
        txl.mbar_wait(q_full, 0)
        consume_fp8(txl.get_buffer(q_bufs, 1), txl.get_buffer(p_bufs, 1),
                    k_bufs, vt_bufs, k_full, v_full, k_empty, v_empty, o_ptr,
                    lse_ptr, m0 + HM, q_off, o_row_stride, h * D,
                    bh * seqlen_q, seqlen_q, seqlen_k, causal_shift, n_full,
                    n_blocks, qk_scale, descale_v, HM, BN, D, STAGES, CAUSAL,
                    1)
