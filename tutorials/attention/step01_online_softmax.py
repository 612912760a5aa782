"""Attention ladder, step 1: the online softmax, with plain loads and dots.

    O = softmax(Q K^T * scale [+ causal mask]) V

per (batch, head), on q, k, v, o of shape [batch, seqlen, heads, head_dim]
(flash-attn's layout, contiguous, fp16 or bf16; seqlen_q = seqlen_k =
seqlen in this ladder). Grid: (cdiv(seqlen, BM), batch * heads), one
warpgroup (num_warps=4) per CTA, BM = 64 query rows each.

The CTA holds its Q tile [BM, D] in registers and walks the keys in
blocks of BN. It never sees a whole row of scores, so the softmax is
computed online: a running row max m, a running row sum l and an
unnormalized output O. For each block j

    S   = Q K_j^T                       (tensor cores, fp32)
    m'  = max(m, rowmax(S) * c)
    P   = exp2(S * c - m')              (one FMA and one ex2 per score)
    a   = exp2(m - m')                  (how much the old max was too small)
    l   = l * a + rowsum(P)
    O   = O * a + P V_j                 (P rounded to V's type)

and at the end O / l is stored. Working in the exp2 domain with c =
scale * log2(e) folds the softmax scale and the change of base into the
single FMA `S * c - m'` per score: m is kept in units of c * S, so nothing
else is ever multiplied by the scale. (ex2 is the instruction the SFU
has; exp(x) costs a multiply on top of it.)

Masks. Keys past seqlen (the ragged last block) and, with CAUSAL, keys
after the query (key > query) get S = -inf, hence P = 0. Every block is
masked here, and with CAUSAL the loop stops at the block holding the
CTA's last query: blocks wholly above the diagonal are never loaded.
Rows past seqlen are computed on zero-filled Q and not stored.

Blocks are small (BN = 32 keys): this kernel holds Q, K_j^T, V_j, S, P
and O in registers at once, and at head dim 128 with 64-key blocks ptxas
runs out of its 255 registers and spills.

Everything moves through registers: `tl.load` with masks, `tl.dot` on
register tensors (the compiler stages them into shared memory for wgmma
and waits for the result). Steps 2-6 take that machinery into their own
hands.
"""
import triton.language as tl
import txl

LOG2E = 1.4426950408889634
BM, BN = 64, 32


@txl.jit
def attn_step01(q_ptr, k_ptr, v_ptr, o_ptr, seqlen, num_heads, qk_scale,
                D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                CAUSAL: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    row_stride = num_heads * D
    # The (batch, head) slice starts at row b * seqlen, column h * D.
    base = (bh // num_heads) * seqlen * row_stride + (bh % num_heads) * D
    rows = pid_m * BM + tl.arange(0, BM)
    cols = tl.arange(0, D)
    q = tl.load(q_ptr + base + rows[:, None] * row_stride + cols[None, :],
                mask=rows[:, None] < seqlen, other=0.0)

    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    hi = seqlen
    if CAUSAL:
        hi = tl.minimum(seqlen, (pid_m + 1) * BM)
    for start in range(0, hi, BN):
        keys = start + tl.arange(0, BN)
        live = keys < seqlen
        # K_j^T [D, BN] and V_j [BN, D], zero past the sequence.
        kt = tl.load(k_ptr + base + keys[None, :] * row_stride + cols[:, None],
                     mask=live[None, :], other=0.0)
        v = tl.load(v_ptr + base + keys[:, None] * row_stride + cols[None, :],
                    mask=live[:, None], other=0.0)
        s = tl.dot(q, kt)
        keep = live[None, :]
        if CAUSAL:
            keep = keep & (keys[None, :] <= rows[:, None])
        s = tl.where(keep, s, float("-inf"))
        # Every row sees key 0 in the first block, so m_new is finite.
        m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
        p = tl.exp2(tl.fma(s, qk_scale, -m_new[:, None]))
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new

    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rows[:, None] * row_stride + cols[None, :],
             out.to(o_ptr.dtype.element_ty), mask=rows[:, None] < seqlen)


def attention(q, k, v, causal=False, sm_scale=None, out=None):
    """O for q, k, v [batch, seqlen, heads, head_dim] (64 or 128), into
    `out` (contiguous, q's shape and type) if given."""
    import torch
    B, S, H, D = q.shape
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q) if out is None else out
    scale = sm_scale if sm_scale is not None else D ** -0.5
    grid = ((S + BM - 1) // BM, B * H)
    attn_step01[grid](q, k, v, o, S, H, scale * LOG2E, D=D, BM=BM, BN=BN,
                      CAUSAL=bool(causal), num_warps=4)
    return o
