"""FlashAttention forward for Hopper, written in txl.

    O = softmax(Q K^T * scale [+ causal mask]) V,  LSE = log(sum(exp(...)))

per (batch, query head), on [batch, seqlen, heads, head_dim] tensors (fp16
or bf16, head_dim 64, 128 or 256; fp8 e4m3, head_dim 64 or 128), with GQA
(the query heads h*G .. h*G+G-1 share key/value head h) and any seqlen_q,
seqlen_k. One kernel, flash_fwd, serves every dtype and feature (windows,
softcap, packed variable-length batches); fp8 changes only what the FP8
section below says.

The schedule (one CTA = 128 query rows of one head; three warpgroups,
num_warps=4, num_warpgroups=3; for three consumers see CONSUMERS=3
below):

- warpgroup 0, the producer, gives up registers (reg_dealloc) and only
  issues TMA: both 64-row Q tiles once (on `q_full`), then every K/V block
  of the CTA into a STAGES-deep ring. K and V of block j share stage
  j % STAGES but have their own `full` and `empty` barriers: the consumers
  start Q K_j^T before V_j has landed, and free K_j as soon as S_j has
  retired, a whole P V earlier than V_j. (With one `empty` per stage, two
  stages left the producer refilling a stage just when it was due: 357
  TFLOP/s against 508 with the split, bench/RESULTS.md.) Each `empty`
  hears one arrival per consumer warpgroup.
- warpgroups 1 and 2, the consumers, take registers (reg_alloc) and each
  owns 64 query rows: S = Q K_j^T (wgmma, both operands in shared memory),
  the online softmax in registers, then O += P V_j with P straight from
  registers (register-A wgmma: P is S's accumulator converted to 16 bits,
  already in the A-fragment layout, so no shared memory is touched; fp8
  takes P from registers too, with V's keys reordered, see FP8).

The online softmax works in the exp2 domain: with c = scale * log2(e), the
running max m is kept in units of c * S, and p = exp2(S * c - m) is one
FMA and one ex2 per score. When the max moves, O and the running sum l are
rescaled by alpha = exp2(m_old - m_new). At the end O / l is stored and
LSE = (m + log2 l) * ln 2 (the natural-log LSE flash-attn returns).

Intra-warpgroup overlap (OVERLAP=True, FA3's schedule): iteration j issues
S_j = Q K_j^T, rescales O by block j-1's alpha while that runs, issues
O += P_{j-1} V_{j-1} and waits with dot_wait(1): that retires S_j while
the P V wgmma is still running, so the softmax of block j (max, exp2,
sums) runs on the CUDA cores under the tensor core's P_{j-1} V_{j-1}.
dot_wait(0) then retires O, and the stage of block j-1 is released. The
first block's softmax is peeled off the loop; the last P V after it.
(OVERLAP=False issues the same work one group at a time.)

Ping-pong (PINGPONG=True, named barriers 8 and 9 over both consumers'
256 threads): a consumer issues its wgmmas of an iteration only after the
other has issued its own (bar_wait on its barrier, then bar_arrive on the
other's), so the tensor core alternates between the two warpgroups and
one's softmax runs under the other's GEMMs. Consumer 1 starts by arriving
once (consumer 0 goes first) and consumer 0 ends by waiting once, so both
barriers end balanced. The default is both (the launcher in
txl/ops/__init__.py); at the benchmark's sizes the four schedules are
within a few percent of each other (bench/RESULTS.md).

Masks cost only where needed: blocks wholly inside the causal triangle and
inside seqlen_k take the unmasked path; only the diagonal blocks and the
ragged last block compare indices, and blocks wholly above the diagonal
are never loaded. Causal masking is bottom-right aligned as in flash-attn
(query i sees keys k <= i + seqlen_k - seqlen_q); rows that see no key
get O = 0 and LSE = -inf. Causal work goes longest-first (below).

Persistent launch (PERSISTENT=True; the launcher's defaults per head dim
and causality are txl/ops/__init__.py FWD_CONFIG): one CTA per SM
walks work tiles (128 query rows of one head) in tile_at's order.
Producer and consumers count the key blocks of the CTA's earlier tiles
(`first`), so the K/V ring's stages and phases run on across tiles and
the producer streams the next tile's Q (into the other of two Q slots)
and first K/V blocks while the consumers finish the last blocks of this
one and store its O and LSE. The ping-pong turns run on across tiles
too. Causal tiles go longest first (the last query block of a head walks
the most keys), dealt round-robin or on demand (DYNAMIC, the launcher's
persistent="dynamic": each CTA takes the next tile when it starts one,
which evens out the CTAs' work better: the H100 numbers are in
FWD_CONFIG's comment), so the shortest tiles come last. (batch,
head) pairs are taken in sections whose K and V fit L2 (the launcher's
_heads_per_section), query blocks outer and heads inner within a section,
so the CTAs running at once share a few heads' K and V.

Sliding windows (LOCAL, and CAUSAL with the right size folded into the
diagonal's shift) and softcap (SOFTCAP: tanh on S before the mask, the
cap folded into qk_scale) reuse the same split: a CTA walks only the
blocks its rows' windows touch, and masks only those that straddle an
edge (the left edge has its own masked loop before the unmasked one).

Head dim 256: O is [64, 256] fp32 per consumer, 128 registers a thread,
so the launcher takes 64-key blocks (BN = 64: S and P are half as big)
and two stages; the intra-warpgroup overlap's second live S tile fits
next to O without spills in the loop (it once did not; the launcher's
FWD_CONFIG has the H100 numbers). Shared memory then holds Q (64 KB) and
the K/V ring (128 KB); the epilogue's change of O to the store layout
goes through the consumer's own Q tile, dead by then, rather than a
conversion scratch of [64, 256] per warpgroup that would not fit. So Q's
slot is free only after the epilogue, and the producer's next tile (its
Q, then its K/V blocks) waits for it. O_FROM_REGS stores O straight from
the accumulator's registers instead (each warp store writes 8 rows of 16
bytes rather than whole rows): Q is then free after the last S, as at
the smaller head dims.

Three consumers (CONSUMERS=3, num_warpgroups=4; head dim 64, where two
consumers' GEMMs are too short to cover the other's softmax): each CTA
takes 192 query rows, Q slot i holds the three Q tiles, every `empty`
hears three arrivals, and the ping-pong turns go round-robin (consumer c
waits on barrier 8 + c and hands over on 8 + (c + 1) % 3; consumer 2
makes the first arrival, consumer 0 takes the last). Registers: the
producer keeps 24 and each consumer takes 160 (24 + 3 * 160 <= 512 per
thread slot), so P is rounded to 16 bits as soon as the softmax has made
it (round_p). Not the default anywhere (the launcher's FWD_CONFIG has the
H100 numbers), and the launcher refuses it with softcap (its tests failed
on the H100, cause not found) and fp8 (never run).

Causal bounds per consumer (CONSUMER_BOUNDS, not the default; never run
on a GPU yet): each consumer computes only the blocks its own rows see
and masks only its own diagonal; the tile's later blocks it passes over
with one ping-pong turn each and its `empty` arrivals (consume).

FP8 (e4m3 q, k, v with per-tensor descale factors dq, dk, dv; bf16 O;
tutorials/attention/step06_fp8.py teaches the same steps):
- the descales cost nothing in the loop: dq * dk joins the softmax scale
  (qk_scale, or softcap_scale with softcap) and dv joins 1 / l in the
  epilogue;
- V comes transposed: 8-bit wgmma reads B only K-major, and for P V the
  K index is the key. The launcher writes V^T as [kv_heads * D, keys]:
  the keys of all sequences side by side, each sequence starting at a
  multiple of 32 columns (`vt_start`: a TMA box's innermost coordinate
  must be 16-byte aligned, else the load is an illegal instruction, and
  the groups of 32 below must line up with the blocks), so V_j^T's
  [D, BN] box sits at K_j's coordinates swapped, shifted to the
  sequence's aligned start;
- P stays in registers (fp32 across the loop's back edge, rounded to e4m3
  at the P V where it is packed four to a register, round_p says why),
  but not in the order the 8-bit A fragment wants: S's accumulator gives a thread
  (lane 4g + q) the columns 2q, 2q+1, 8+2q, 9+2q, 16+2q, ... of its rows,
  wgmma's k32 A fragment wants 4q .. 4q+3 and 16+4q .. 19+4q.
  txl.acc_to_dot_a(p) takes the registers as they are and says what they
  then mean: P with its columns permuted within each group of 32 keys
  (acc_to_dot_a_columns(8): A column 16h + 4q + i is key 16h + 8(i//2) +
  2q + i%2). P V sums over keys, so it is unchanged when V's rows (V^T's
  columns) are permuted the same way, which transpose_v_fp8 does while
  it transposes: no shuffle, no shared memory, only each thread's bytes
  packed four to a register (FA3 permutes the same way). P_SMEM=True
  keeps the older path for comparison: each consumer stores P into its
  own [64, BN] buffer and issues P V from there (V^T in key order).
  P in e4m3 has 3 mantissa bits: ~3% relative rounding per probability,
  which the row sums average down.
ptxas spills nothing for the fp8 kernels at head dims 64 and 128, with
every feature on too (the P_SMEM path keeps 4 bytes of the epilogue in
local memory at head dim 64 with every feature, none in the loop).

Tails need no special loads: Q, K and V are seen by TMA as 2-D tensors
[batch * seqlen, heads * head_dim], so a block that runs past a sequence
reads the next batch's rows (or zeros past the last): their scores are
masked to -inf (keys), or their outputs are not stored (queries; O and
LSE are stored with masks).
"""
import triton.language as tl
import txl

LOG2E = 1.4426950408889634


@txl.jit
def produce(q_bufs, k_bufs, v_bufs, q_full, q_empty, k_full, v_full, k_empty,
            v_empty, q_desc, k_desc, v_desc, q_row, k_row, q_col, kv_col,
            vt_col, n_blocks, first, tile_i, t, tile_slots, HM: tl.constexpr,
            BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr,
            QSTAGES: tl.constexpr, PERSISTENT: tl.constexpr,
            FP8: tl.constexpr = False, DYNAMIC: tl.constexpr = False,
            NC: tl.constexpr = 2):
    """One tile: the NC consumers' Q tiles into Q slot tile_i % QSTAGES
    (PERSISTENT: once the consumers have freed it, QSTAGES tiles ago), then
    K and V of blocks 0 .. n_blocks-1, block j into ring position first + j
    (first: the blocks of the CTA's earlier tiles), each as soon as the
    consumers have freed its stage. FP8: V comes transposed, V_j^T is the [D, BN]
    box at row kv_col, column vt_col + j*BN. DYNAMIC: the tile's number t
    goes to tile_slots[slot] for the consumers (published by q_full)."""
    ELEM: tl.constexpr = q_desc.dtype.primitive_bitwidth // 8
    slot = tile_i % QSTAGES
    if PERSISTENT:
        # The flipped parity passes at once on a fresh barrier (REFERENCE
        # section 3): the first QSTAGES tiles do not wait.
        txl.mbar_wait(txl.get_buffer(q_empty, slot),
                      ((tile_i // QSTAGES) & 1) ^ 1)
    if DYNAMIC:
        # A scalar store is thread 0's, the thread that arrives on q_full
        # below (its arrival releases the store to the consumers' wait).
        tl.store(tile_slots + slot, t)
    qb = txl.get_buffer(q_full, slot)
    txl.mbar_expect(qb, NC * HM * D * ELEM)
    for c in tl.static_range(NC):
        txl.tma_load(txl.get_buffer(q_bufs, NC * slot + c), q_desc,
                     [q_row + c * HM, q_col], qb)
    for j in range(n_blocks):
        g = first + j
        s = g % STAGES
        free_phase = ((g // STAGES) & 1) ^ 1
        txl.mbar_wait(txl.get_buffer(k_empty, s), free_phase)
        kb = txl.get_buffer(k_full, s)
        txl.mbar_expect(kb, BN * D * ELEM)
        txl.tma_load(txl.get_buffer(k_bufs, s), k_desc,
                     [k_row + j * BN, kv_col], kb)
        txl.mbar_wait(txl.get_buffer(v_empty, s), free_phase)
        vb = txl.get_buffer(v_full, s)
        txl.mbar_expect(vb, BN * D * ELEM)
        if FP8:
            txl.tma_load(txl.get_buffer(v_bufs, s), v_desc,
                         [kv_col, vt_col + j * BN], vb)
        else:
            txl.tma_load(txl.get_buffer(v_bufs, s), v_desc,
                         [k_row + j * BN, kv_col], vb)


@txl.jit
def scores(q, k_bufs, k_full, j, STAGES: tl.constexpr):
    """S_j = Q K_j^T, issued (asynchronous) once K_j has landed."""
    s = j % STAGES
    txl.mbar_wait(txl.get_buffer(k_full, s), (j // STAGES) & 1)
    return tl.dot(q, txl.get_buffer(k_bufs, s).T)


@txl.jit
def mask_scores(S, j, rows, col0, seqlen_k, causal_shift, left_shift,
                BN: tl.constexpr, CAUSAL: tl.constexpr, LOCAL: tl.constexpr):
    """-inf where key col0 + j*BN + c is past seqlen_k, (CAUSAL) after the
    query's diagonal moved right by the window's right size, or (LOCAL)
    before its left edge."""
    cols = col0 + j * BN + tl.arange(0, BN)
    keep = cols[None, :] < seqlen_k
    if CAUSAL:
        keep = keep & (cols[None, :] <= rows[:, None] + causal_shift)
    if LOCAL:
        keep = keep & (cols[None, :] >= rows[:, None] + left_shift)
    return tl.where(keep, S, float("-inf"))


@txl.jit
def cap_scores(S, softcap_scale, SOFTCAP: tl.constexpr):
    """softcap: the scores become softcap * tanh(S * scale / softcap); the
    factor softcap is folded into qk_scale by the launcher."""
    if SOFTCAP:
        S = tl.tanh(S * softcap_scale)
    return S


@txl.jit
def softmax_step(S, m_i, l_i, qk_scale):
    """The online-softmax update for one block of scores: the new running
    max m (in exp2 units), P = exp2(S * c - m) (one FMA and one ex2 per
    score), the factor alpha the old O and l are scaled by, and the new
    l."""
    m_new = tl.maximum(m_i, txl.warp_max(S, 1) * qk_scale)
    # A row that has seen only masked keys keeps m = -inf; subtracting 0
    # instead leaves its P at exp2(-inf) = 0 rather than NaN.
    m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
    # libdevice's exp2 is one ex2.approx.ftz; tl.exp2 keeps subnormals, for
    # which ptxas adds a range check and two multiplies to every ex2 (5-10%
    # of the kernel's time, bench/RESULTS.md). A p < 2^-126 that flushes to
    # zero is a key whose weight, next to the row's max (p = 1), is far
    # below what P's 16-bit type resolves.
    p = tl.extra.cuda.libdevice.exp2(tl.fma(S, qk_scale, -m_use[:, None]))
    alpha = tl.extra.cuda.libdevice.exp2(m_i - m_use)
    l_new = l_i * alpha + txl.warp_sum(p, 1)
    return p, alpha, m_new, l_new


@txl.jit
def softmax_first(S, qk_scale):
    """softmax_step for the first block (no previous max or sum). Peeling
    it also gives the running max and sum the layout of S's rows from the
    start, so the loop carries them without moving them."""
    m_new = txl.warp_max(S, 1) * qk_scale
    m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
    p = tl.extra.cuda.libdevice.exp2(tl.fma(S, qk_scale, -m_use[:, None]))
    return p, m_new, txl.warp_sum(p, 1)


@txl.jit
def pv(acc, p, p_buf, v_bufs, v_full, j, STAGES: tl.constexpr,
       FP8: tl.constexpr, P_SMEM: tl.constexpr = False):
    """O += P_j V_j, issued once V_j has landed. P from registers, rounded
    to V's type: packed pairs straight into wgmma's A fragment. FP8: V_j^T's
    stage is the K-major B operand, and P (e4m3) the A operand in the order
    txl.acc_to_dot_a gives its registers, which V^T's keys were written in;
    P_SMEM: P stored into this consumer's p_buf instead (the previous P V
    read of it has retired) and read from there."""
    s = j % STAGES
    v = txl.get_buffer(v_bufs, s)
    if FP8 and P_SMEM:
        txl.smem_store(p_buf, p.to(p_buf.dtype))
        txl.mbar_wait(txl.get_buffer(v_full, s), (j // STAGES) & 1)
        acc = tl.dot(p_buf, v.T, acc)
    elif FP8:
        txl.mbar_wait(txl.get_buffer(v_full, s), (j // STAGES) & 1)
        acc = tl.dot(txl.acc_to_dot_a(p.to(v.dtype)), v.T, acc)
    else:
        txl.mbar_wait(txl.get_buffer(v_full, s), (j // STAGES) & 1)
        acc = tl.dot(p.to(v.dtype), v, acc)
    return acc


@txl.jit
def round_p(p, p_buf, dt, FP8: tl.constexpr, D: tl.constexpr,
            P_SMEM: tl.constexpr = False, NC: tl.constexpr = 2):
    """P rounded to its P V operand type as soon as the softmax has made it:
    it crosses the loop's back edge (its P V is issued in the next
    iteration), and rounded it takes fewer registers there. 16-bit at head
    dim >= 128: 32 instead of 64, which keeps ptxas from spilling (at 64,
    with registers to spare, the early rounding made it spill instead: pv
    rounds it there, into wgmma's A fragment; with three consumers, 160
    registers each, fp32 P spills kilobytes, so it is rounded early there
    too). FP8 with P_SMEM: e4m3 (the older path). FP8 from registers: P stays fp32 and pv rounds it where it
    packs the A fragment: each pair of adjacent columns becomes one 16-bit
    cvt result and two pairs one register, one byte permute; e4m3 bytes
    carried across the back edge are packed byte by byte (SASS of the D128
    kernel: 96 PRMT and 4632 instructions against 443 and 5112; ptxas
    spills nothing either way)."""
    if FP8 and P_SMEM:
        p = p.to(p_buf.dtype)
    elif FP8:
        p = p
    elif D >= 128 or NC == 3:
        p = p.to(dt)
    return p


@txl.jit
def release(bars, j, leader, STAGES: tl.constexpr):
    txl.mbar_arrive(txl.get_buffer(bars, j % STAGES), pred=leader)


@txl.jit
def turn_begin(ROLE: tl.constexpr, PINGPONG: tl.constexpr):
    """Ping-pong: wait until the previous consumer in turn order has issued
    its wgmmas (named barrier 8 + ROLE counts its 128 arrivals and our
    128)."""
    if PINGPONG:
        txl.bar_wait(8 + ROLE, 256)


@txl.jit
def turn_end(ROLE: tl.constexpr, PINGPONG: tl.constexpr,
             NC: tl.constexpr = 2):
    """Ping-pong: our wgmmas are issued; the next consumer's turn (the NC
    consumers take turns round-robin: 0, 1, .., NC-1, 0, ...)."""
    if PINGPONG:
        txl.bar_arrive(8 + (ROLE + 1) % NC, 256)


@txl.jit
def attend(q, p_buf, k_bufs, v_bufs, k_full, v_full, k_empty, v_empty, acc,
           p, alpha, m_i, l_i, first, lo, hi, rows, col0, seqlen_k,
           causal_shift, left_shift, softcap_scale, qk_scale, leader, BN: tl.constexpr,
           STAGES: tl.constexpr, CAUSAL: tl.constexpr, MASK: tl.constexpr,
           OVERLAP: tl.constexpr, ROLE: tl.constexpr,
           PINGPONG: tl.constexpr, LOCAL: tl.constexpr,
           SOFTCAP: tl.constexpr, FP8: tl.constexpr,
           P_SMEM: tl.constexpr, NC: tl.constexpr):
    """Blocks lo .. hi-1 (lo >= 1): the softmax of block j and O += P V of
    block j-1; masks applied only with MASK. Block j sits at ring position
    first + j."""
    for j in range(lo, hi):
        g = first + j
        turn_begin(ROLE, PINGPONG)
        if OVERLAP:
            S = scores(q, k_bufs, k_full, g, STAGES)
            # O is rescaled under S_j's wgmma, then O += P_{j-1} V_{j-1}.
            acc = pv(acc * alpha[:, None], p, p_buf, v_bufs, v_full, g - 1,
                     STAGES, FP8, P_SMEM)
            turn_end(ROLE, PINGPONG, NC)
            txl.dot_wait(1)  # S_j is ready; P_{j-1} V_{j-1} runs on
        else:
            acc = pv(acc * alpha[:, None], p, p_buf, v_bufs, v_full, g - 1,
                     STAGES, FP8, P_SMEM)
            S = scores(q, k_bufs, k_full, g, STAGES)
            turn_end(ROLE, PINGPONG, NC)
            txl.dot_wait(0)
        release(k_empty, g, leader, STAGES)
        S = cap_scores(S, softcap_scale, SOFTCAP)
        if MASK:
            S = mask_scores(S, j, rows, col0, seqlen_k, causal_shift,
                            left_shift, BN, CAUSAL, LOCAL)
        p_j, alpha, m_i, l_i = softmax_step(S, m_i, l_i, qk_scale)
        p = p_j.to(p.dtype)  # the type consume chose to carry P in (round_p)
        txl.dot_wait(0)
        release(v_empty, g - 1, leader, STAGES)
    return acc, p, alpha, m_i, l_i


@txl.jit
def own_blocks(q_start, seqlen_k, causal_shift, n_blocks, n_full,
               HM: tl.constexpr, BN: tl.constexpr):
    """Causal (no window, keys from 0): the tile's n_blocks and n_full
    narrowed to the rows q_start .. q_start+HM-1 of one warpgroup: its
    last row sees keys up to q_start + HM - 1 + causal_shift, its first
    row all keys up to q_start + causal_shift (key_blocks does the same
    for the whole tile)."""
    mine = tl.minimum(n_blocks, tl.cdiv(
        tl.maximum(q_start + HM + causal_shift, 0), BN))
    full = tl.minimum(seqlen_k // BN,
                      tl.maximum(q_start + causal_shift + 1, 0) // BN)
    return mine, tl.minimum(tl.maximum(n_full, full), mine)


@txl.jit
def pass_blocks(k_full, v_full, k_empty, v_empty, first, lo, hi, leader,
                STAGES: tl.constexpr, ROLE: tl.constexpr,
                PINGPONG: tl.constexpr, NC: tl.constexpr):
    """Blocks lo .. hi-1 of the tile, which this warpgroup's rows do not
    see: nothing is computed, but the warpgroup takes its ping-pong turn
    per block (every consumer takes as many turns per tile) and releases
    each block's stages once they have landed (waiting for the `full`
    phase first keeps its `empty` arrival in that block's phase)."""
    for j in range(lo, hi):
        g = first + j
        turn_begin(ROLE, PINGPONG)
        turn_end(ROLE, PINGPONG, NC)
        s = g % STAGES
        txl.mbar_wait(txl.get_buffer(k_full, s), (g // STAGES) & 1)
        release(k_empty, g, leader, STAGES)
        txl.mbar_wait(txl.get_buffer(v_full, s), (g // STAGES) & 1)
        release(v_empty, g, leader, STAGES)


@txl.jit
def consume(q, q_free, p_buf, k_bufs, v_bufs, k_full, v_full, k_empty,
            v_empty, o_ptr, lse_ptr, q_start, row0, o_row_stride, o_col,
            lse_base, seqlen_q, seqlen_k, causal_shift, left_shift,
            softcap_scale, col0, n_left, n_full, n_blocks, first, qk_scale,
            descale_v,
            HM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
            STAGES: tl.constexpr, CAUSAL: tl.constexpr,
            OVERLAP: tl.constexpr, ROLE: tl.constexpr,
            PINGPONG: tl.constexpr, LOCAL: tl.constexpr,
            SOFTCAP: tl.constexpr, FP8: tl.constexpr,
            P_SMEM: tl.constexpr, REUSE_Q: tl.constexpr, NC: tl.constexpr,
            O_FROM_REGS: tl.constexpr, CONSUMER_BOUNDS: tl.constexpr):
    """One consumer warpgroup, one tile: its HM query rows (Q tile q, landed)
    against blocks 0 .. n_blocks-1 (keys from col0 on; block j at ring
    position first + j). Blocks [n_left, n_full) need no mask; those
    before (a sliding window's left edge) and after (the diagonal, the
    window's right edge, the ragged end) do. FP8: O is scaled by
    descale_v in the epilogue. REUSE_Q (persistent): arrives on q_free
    once done with Q: the producer may load the next Q into this tile.
    CONSUMER_BOUNDS (causal, no window): the bounds are narrowed to this
    warpgroup's own rows (own_blocks); the blocks past its last row's
    diagonal are passed over (pass_blocks)."""
    leader = txl.tid(0) % 128 == 0
    rows = q_start + tl.arange(0, HM)  # query indices within the sequence
    m_i = tl.full([HM], float("-inf"), tl.float32)
    l_i = tl.zeros([HM], dtype=tl.float32)
    acc = tl.zeros([HM, D], dtype=tl.float32)
    n_tile = n_blocks  # the blocks the producer loads for the whole tile
    if CONSUMER_BOUNDS and CAUSAL and not LOCAL:
        n_blocks, n_full = own_blocks(q_start, seqlen_k, causal_shift,
                                      n_blocks, n_full, HM, BN)
    if n_blocks > 0:
        turn_begin(ROLE, PINGPONG)
        S = scores(q, k_bufs, k_full, first, STAGES)
        turn_end(ROLE, PINGPONG, NC)
        txl.dot_wait(0)
        release(k_empty, first, leader, STAGES)
        S = cap_scores(S, softcap_scale, SOFTCAP)
        if n_left > 0 or n_full < 1:
            S = mask_scores(S, 0, rows, col0, seqlen_k, causal_shift,
                            left_shift, BN, CAUSAL, LOCAL)
        p, m_i, l_i = softmax_first(S, qk_scale)
        p = round_p(p, p_buf, q.dtype, FP8, D, P_SMEM, NC)
        # O is zero, so the first rescale may use any finite factor (one
        # computed from l keeps the layout of S's rows).
        alpha = l_i * 0.0 + 1.0
        start = 1
        if LOCAL:
            # Blocks 1 .. n_left-1 straddle the window's left edge.
            start = tl.maximum(n_left, 1)
            acc, p, alpha, m_i, l_i = attend(
                q, p_buf, k_bufs, v_bufs, k_full, v_full, k_empty, v_empty,
                acc, p, alpha, m_i, l_i, first, 1, start, rows, col0, seqlen_k,
                causal_shift, left_shift, softcap_scale, qk_scale, leader,
                BN, STAGES, CAUSAL, True, OVERLAP, ROLE, PINGPONG, LOCAL,
                SOFTCAP, FP8, P_SMEM, NC)
        # Blocks start .. n_full-1 need no mask; the rest (the diagonal,
        # the ragged end) do.
        mid = tl.maximum(n_full, start)
        acc, p, alpha, m_i, l_i = attend(
            q, p_buf, k_bufs, v_bufs, k_full, v_full, k_empty, v_empty, acc,
            p, alpha, m_i, l_i, first, start, mid, rows, col0, seqlen_k,
            causal_shift, left_shift, softcap_scale, qk_scale, leader, BN,
            STAGES, CAUSAL, False, OVERLAP, ROLE, PINGPONG, LOCAL, SOFTCAP,
            FP8, P_SMEM, NC)
        acc, p, alpha, m_i, l_i = attend(
            q, p_buf, k_bufs, v_bufs, k_full, v_full, k_empty, v_empty, acc,
            p, alpha, m_i, l_i, first, mid, n_blocks, rows, col0, seqlen_k,
            causal_shift, left_shift, softcap_scale, qk_scale, leader, BN,
            STAGES, CAUSAL, True, OVERLAP, ROLE, PINGPONG, LOCAL, SOFTCAP,
            FP8, P_SMEM, NC)
        turn_begin(ROLE, PINGPONG)
        acc = pv(acc * alpha[:, None], p, p_buf, v_bufs, v_full,
                 first + n_blocks - 1, STAGES, FP8, P_SMEM)
        turn_end(ROLE, PINGPONG, NC)
        txl.dot_wait(0)
        release(v_empty, first + n_blocks - 1, leader, STAGES)
    elif n_tile > 0:
        # No block of the tile is ours: the turn of the first S.
        turn_begin(ROLE, PINGPONG)
        turn_end(ROLE, PINGPONG, NC)
    pass_blocks(k_full, v_full, k_empty, v_empty, first, n_blocks, n_tile,
                leader, STAGES, ROLE, PINGPONG, NC)
    if REUSE_Q and (D <= 128 or O_FROM_REGS):
        # Every S wgmma that read Q has retired (the dot_wait(0) above):
        # the producer may load the next tile's Q here while this
        # warpgroup's epilogue runs.
        txl.mbar_arrive(q_free, pred=leader)
    # Epilogue: rows that saw no key (l = 0) get O = 0 and LSE = -inf.
    seen = l_i > 0.0
    # Approximate division: an IEEE one calls a slow path, and a call
    # serializes the wgmmas under nvJitLink (C7509).
    inv_l = tl.where(seen, tl.fdiv(1.0, l_i), 0.0)
    if FP8:
        inv_l = inv_l * descale_v
    out = (acc * inv_l[:, None]).to(o_ptr.dtype.element_ty)
    if O_FROM_REGS:
        # Stored straight from the accumulator's registers (the layout
        # pinned: its pointers and mask follow it), 8 rows of 16 bytes per
        # warp store instead of whole rows, but with no shared memory and
        # no barrier, and Q is free for the next tile right after the last
        # S (above).
        out = txl.relayout(out, [HM, D], txl.NVMMADistributedLayout(
            3, [4, 1], [16, D, 16]))
    elif D > 128:
        # The layout change for the row-major store goes through this
        # warpgroup's Q tile (every S wgmma that read it has retired): a
        # conversion scratch would be [64, D] per warpgroup on top of the
        # tiles, more than shared memory has left at D = 256.
        txl.smem_store(q, out)
        out = txl.smem_load(q)
        # Q is free once every thread has read its part back; the next Q
        # comes by TMA (the async proxy) over these generic-proxy writes.
        # q_free counts all 128 threads of each consumer here.
        if REUSE_Q:
            txl.fence_proxy_async()
            txl.mbar_arrive(q_free)
    cols = tl.arange(0, D)
    live = rows < seqlen_q
    offs = (row0 + rows)[:, None] * o_row_stride + o_col + cols[None, :]
    tl.store(o_ptr + offs, out, mask=live[:, None])
    lse = tl.where(seen, (m_i + tl.log2(l_i)) * 0.6931471805599453,
                   float("-inf"))
    tl.store(lse_ptr + lse_base + rows, lse, mask=live)


@txl.jit
def vt_start(k_off, b):
    """FP8: the column of V^T where sequence b's keys start (its first key
    row is k_off): TMA wants the innermost coordinate of a box 16-byte
    aligned, and the keys are permuted within groups of 32 (FP8 section
    above), so every sequence starts at a multiple of 32 (k_off rounded
    up, plus 32 per earlier sequence, which keeps them apart;
    transpose_v_fp8 in txl/ops/__init__.py lays V^T out the same way)."""
    return ((k_off + 31) // 32 + b) * 32


@txl.jit
def key_blocks(m0, seqlen_k, causal_shift, left_shift, BM: tl.constexpr,
               BN: tl.constexpr, CAUSAL: tl.constexpr, LOCAL: tl.constexpr):
    """The key blocks the CTA of query rows m0 .. m0+BM-1 walks: blocks
    0 .. n_blocks-1 of BN keys from key col0 on; those in [n_left, n_full)
    need no mask."""
    n_blocks = tl.cdiv(seqlen_k, BN)
    n_full = seqlen_k // BN  # blocks that need no mask
    if CAUSAL:
        # Keys up to m0 + BM - 1 + shift are visible to some row; the block
        # holding key m0 + shift + 1 is the first some row must not see.
        last_key = m0 + BM + causal_shift  # one past
        n_blocks = tl.minimum(n_blocks, tl.cdiv(tl.maximum(last_key, 0), BN))
        n_full = tl.minimum(n_full, tl.maximum(m0 + causal_shift + 1, 0) // BN)
    # With LOCAL the blocks before n_left straddle the window's left edge:
    # the first row's first key is m0 + left_shift, the last row's m0 + BM
    # - 1 + left_shift.
    first_block = 0
    n_left = 0
    if LOCAL:
        first_block = tl.minimum(tl.maximum(m0 + left_shift, 0) // BN,
                                 n_blocks)
        n_left = tl.minimum(
            tl.cdiv(tl.maximum(m0 + BM - 1 + left_shift, 0), BN), n_blocks)
    n_blocks = n_blocks - first_block  # from here on: relative to col0
    n_left = n_left - first_block
    n_full = tl.minimum(tl.maximum(n_full - first_block, n_left), n_blocks)
    return first_block * BN, n_left, n_full, n_blocks


@txl.jit
def section_order(t, blocks, num_bh, section):
    """Tile t of the persistent kernels' shared order as (block, pair):
    the num_bh (batch, head) pairs come in sections of `section`, and a
    section's tiles go block by block with its pairs inner, so the CTAs
    running at once touch a few pairs' data only (the launchers size a
    section to fit L2). The backward (flash_attn_bwd.py) walks its key
    blocks in the same order."""
    per_section = section * blocks
    sec = t // per_section
    inner = t - sec * per_section
    pairs = tl.minimum(section, num_bh - sec * section)
    block = inner // pairs
    return block, sec * section + inner - block * pairs


@txl.jit
def tile_at(t, num_m_blocks, num_bh, section, CAUSAL: tl.constexpr,
            PERSISTENT: tl.constexpr):
    """Work tile t: (query block, batch * num_heads + head). PERSISTENT:
    tile t of the CTAs' shared order. The (batch, head) pairs come in
    sections of `section`; a section's tiles go query block by query
    block, its heads inner, so the CTAs running at once read the K/V of
    a few heads only (the launcher sizes a section to fit L2). Else the
    CTA's own tile from its program ids. CAUSAL: query blocks from the
    last (the most keys) down, so the last tiles of the order, and the
    last wave of CTAs, are the shortest."""
    if PERSISTENT:
        m, bh = section_order(t, num_m_blocks, num_bh, section)
    else:
        m = tl.program_id(0)
        bh = tl.program_id(1)
    if CAUSAL:
        m = num_m_blocks - 1 - m
    return m, bh


@txl.jit
def tile_work(pid_m, bh, seqlen_q, seqlen_k, num_heads, window_left,
              window_right, cu_q_ptr, cu_k_ptr, BM: tl.constexpr,
              BN: tl.constexpr, CAUSAL: tl.constexpr, LOCAL: tl.constexpr,
              VARLEN: tl.constexpr):
    """Where tile (pid_m, bh) reads and writes, and the key blocks it walks
    (key_blocks): head h of sequence b, query rows m0 .. m0+BM-1 of it;
    the sequence starts at row q_off of q/o and k_off of k/v; its LSE at
    lse_base."""
    b = bh // num_heads
    h = bh % num_heads
    m0 = pid_m * BM
    q_off = b * seqlen_q  # the sequence's first row in q/o and k/v
    k_off = b * seqlen_k
    lse_base = bh * seqlen_q
    if VARLEN:
        q_off = tl.load(cu_q_ptr + b)
        k_off = tl.load(cu_k_ptr + b)
        lse_base = h * seqlen_q + q_off
        seqlen_q = tl.load(cu_q_ptr + b + 1) - q_off
        seqlen_k = tl.load(cu_k_ptr + b + 1) - k_off
    causal_shift = seqlen_k - seqlen_q + window_right
    left_shift = seqlen_k - seqlen_q - window_left
    col0, n_left, n_full, n_blocks = key_blocks(
        m0, seqlen_k, causal_shift, left_shift, BM, BN, CAUSAL, LOCAL)
    if VARLEN:
        # A tile past its sequence's end: no blocks (the consumers' stores
        # are all masked off).
        n_blocks = tl.where(m0 < seqlen_q, n_blocks, 0)
    return (b, h, m0, q_off, k_off, lse_base, seqlen_q, seqlen_k,
            causal_shift, left_shift, col0, n_left, n_full, n_blocks)


@txl.jit
def produce_tile(t, first, tile_i, q_bufs, k_bufs, v_bufs, q_full, q_empty,
                 k_full, v_full, k_empty, v_empty, q_desc, k_desc, v_desc,
                 seqlen_q, seqlen_k, num_heads, group, num_m_blocks, num_bh,
                 section, window_left, window_right, cu_q_ptr, cu_k_ptr,
                 tile_slots, HM: tl.constexpr, BN: tl.constexpr,
                 D: tl.constexpr, STAGES: tl.constexpr,
                 QSTAGES: tl.constexpr, CAUSAL: tl.constexpr,
                 PERSISTENT: tl.constexpr, LOCAL: tl.constexpr,
                 VARLEN: tl.constexpr, FP8: tl.constexpr,
                 DYNAMIC: tl.constexpr, NC: tl.constexpr):
    """The producer's loads of work tile t (tile_at); returns its number of
    key blocks."""
    pid_m, bh = tile_at(t, num_m_blocks, num_bh, section, CAUSAL,
                        PERSISTENT)
    (b, h, m0, q_off, k_off, lse_base, sq, sk, causal_shift, left_shift,
     col0, n_left, n_full, n_blocks) = tile_work(
         pid_m, bh, seqlen_q, seqlen_k, num_heads, window_left,
         window_right, cu_q_ptr, cu_k_ptr, NC * HM, BN, CAUSAL, LOCAL,
         VARLEN)
    produce(q_bufs, k_bufs, v_bufs, q_full, q_empty, k_full, v_full,
            k_empty, v_empty, q_desc, k_desc, v_desc, q_off + m0,
            k_off + col0, h * D, (h // group) * D,
            vt_start(k_off, b) + col0, n_blocks, first, tile_i, t, tile_slots,
            HM, BN, D, STAGES, QSTAGES, PERSISTENT, FP8, DYNAMIC, NC)
    return n_blocks


@txl.jit
def produce_end(q_full, q_empty, tile_slots, t, tile_i,
                QSTAGES: tl.constexpr):
    """DYNAMIC: no tile is left (t >= the number of tiles): t goes to the
    consumers through the next Q slot as a tile number would, with a plain
    arrival on q_full (no bytes)."""
    slot = tile_i % QSTAGES
    txl.mbar_wait(txl.get_buffer(q_empty, slot),
                  ((tile_i // QSTAGES) & 1) ^ 1)
    tl.store(tile_slots + slot, t)
    txl.mbar_arrive(txl.get_buffer(q_full, slot), pred=txl.tid(0) == 0)


@txl.jit
def consume_tile(t, first, tile_i, q_bufs, q_full, q_empty, p_buf, k_bufs,
                 v_bufs, k_full, v_full, k_empty, v_empty, o_ptr, lse_ptr,
                 seqlen_q, seqlen_k, num_heads, num_m_blocks, num_bh,
                 section, o_row_stride, qk_scale, window_left, window_right,
                 softcap_scale, cu_q_ptr, cu_k_ptr, descale_v,
                 HM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
                 STAGES: tl.constexpr, QSTAGES: tl.constexpr,
                 CAUSAL: tl.constexpr, OVERLAP: tl.constexpr,
                 ROLE: tl.constexpr, PINGPONG: tl.constexpr,
                 PERSISTENT: tl.constexpr, LOCAL: tl.constexpr,
                 SOFTCAP: tl.constexpr, VARLEN: tl.constexpr,
                 FP8: tl.constexpr, P_SMEM: tl.constexpr, NC: tl.constexpr,
                 O_FROM_REGS: tl.constexpr, CONSUMER_BOUNDS: tl.constexpr):
    """Consumer ROLE's part of work tile t: rows m0 + ROLE*HM on, from Q
    slot tile_i % QSTAGES once it has landed; returns the tile's number of
    key blocks."""
    pid_m, bh = tile_at(t, num_m_blocks, num_bh, section, CAUSAL,
                        PERSISTENT)
    (b, h, m0, q_off, k_off, lse_base, sq, sk, causal_shift, left_shift,
     col0, n_left, n_full, n_blocks) = tile_work(
         pid_m, bh, seqlen_q, seqlen_k, num_heads, window_left,
         window_right, cu_q_ptr, cu_k_ptr, NC * HM, BN, CAUSAL, LOCAL,
         VARLEN)
    slot = tile_i % QSTAGES
    txl.mbar_wait(txl.get_buffer(q_full, slot), (tile_i // QSTAGES) & 1)
    consume(txl.get_buffer(q_bufs, NC * slot + ROLE),
            txl.get_buffer(q_empty, slot), p_buf, k_bufs, v_bufs, k_full,
            v_full, k_empty, v_empty, o_ptr, lse_ptr, m0 + ROLE * HM, q_off,
            o_row_stride, h * D, lse_base, sq, sk, causal_shift, left_shift,
            softcap_scale, col0, n_left, n_full, n_blocks, first, qk_scale,
            descale_v, HM, BN, D, STAGES, CAUSAL, OVERLAP, ROLE, PINGPONG,
            LOCAL, SOFTCAP, FP8, P_SMEM, PERSISTENT, NC, O_FROM_REGS,
            CONSUMER_BOUNDS)
    return n_blocks


@txl.jit
def consumer(ROLE: tl.constexpr, num_tiles, tile_slots, q_bufs, q_full,
             q_empty, p_buf, k_bufs, v_bufs, k_full, v_full, k_empty,
             v_empty, o_ptr, lse_ptr, seqlen_q, seqlen_k, num_heads, num_m_blocks, num_bh,
             section, o_row_stride, qk_scale, window_left, window_right,
             softcap_scale, cu_q_ptr, cu_k_ptr, descale_v, HM: tl.constexpr,
             BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr,
             QSTAGES: tl.constexpr, CAUSAL: tl.constexpr,
             OVERLAP: tl.constexpr, PINGPONG: tl.constexpr,
             PERSISTENT: tl.constexpr, LOCAL: tl.constexpr,
             SOFTCAP: tl.constexpr, VARLEN: tl.constexpr,
             FP8: tl.constexpr, DYNAMIC: tl.constexpr,
             P_SMEM: tl.constexpr, NC: tl.constexpr,
             O_FROM_REGS: tl.constexpr, CONSUMER_BOUNDS: tl.constexpr):
    """Consumer warpgroup ROLE over the CTA's tiles. Ping-pong turns run on
    across tiles (both consumers take the same number of turns per tile),
    so its prologue and epilogue are once per CTA. DYNAMIC: the next
    tile's number is in its Q slot's tile_slots entry once q_full says the
    slot is filled (past the last tile: a number >= num_tiles)."""
    if PINGPONG and ROLE == NC - 1:
        turn_end(ROLE, PINGPONG, NC)  # consumer 0 goes first
    if DYNAMIC:
        first = 0
        tile_i = 0
        t = tl.program_id(0)
        while t < num_tiles:
            first += consume_tile(
                t, first, tile_i, q_bufs, q_full, q_empty, p_buf, k_bufs,
                v_bufs, k_full, v_full, k_empty, v_empty, o_ptr, lse_ptr,
                seqlen_q, seqlen_k, num_heads, num_m_blocks, num_bh,
                section, o_row_stride, qk_scale, window_left, window_right,
                softcap_scale, cu_q_ptr, cu_k_ptr, descale_v, HM, BN, D,
                STAGES, QSTAGES, CAUSAL, OVERLAP, ROLE, PINGPONG, PERSISTENT,
                LOCAL, SOFTCAP, VARLEN, FP8, P_SMEM, NC, O_FROM_REGS,
                CONSUMER_BOUNDS)
            tile_i += 1
            # (consume_tile waits on the same phase again: it passes.)
            slot = tile_i % QSTAGES
            txl.mbar_wait(txl.get_buffer(q_full, slot),
                          (tile_i // QSTAGES) & 1)
            t = tl.load(tile_slots + slot, volatile=True)
    elif PERSISTENT:
        first = 0
        tile_i = 0
        for t in range(tl.program_id(0), num_tiles, tl.num_programs(0)):
            first += consume_tile(
                t, first, tile_i, q_bufs, q_full, q_empty, p_buf, k_bufs,
                v_bufs, k_full, v_full, k_empty, v_empty, o_ptr, lse_ptr,
                seqlen_q, seqlen_k, num_heads, num_m_blocks, num_bh,
                section, o_row_stride, qk_scale, window_left, window_right,
                softcap_scale, cu_q_ptr, cu_k_ptr, descale_v, HM, BN, D,
                STAGES, QSTAGES, CAUSAL, OVERLAP, ROLE, PINGPONG, PERSISTENT,
                LOCAL, SOFTCAP, VARLEN, FP8, P_SMEM, NC, O_FROM_REGS,
                CONSUMER_BOUNDS)
            tile_i += 1
    else:
        consume_tile(0, 0, 0, q_bufs, q_full, q_empty, p_buf, k_bufs, v_bufs,
                     k_full, v_full, k_empty, v_empty, o_ptr, lse_ptr,
                     seqlen_q, seqlen_k, num_heads, num_m_blocks, num_bh,
                     section, o_row_stride, qk_scale, window_left,
                     window_right, softcap_scale, cu_q_ptr, cu_k_ptr,
                     descale_v, HM, BN, D, STAGES, QSTAGES, CAUSAL, OVERLAP,
                     ROLE, PINGPONG, PERSISTENT, LOCAL, SOFTCAP, VARLEN, FP8,
                     P_SMEM, NC, O_FROM_REGS, CONSUMER_BOUNDS)
    if PINGPONG and ROLE == 0:
        turn_begin(ROLE, PINGPONG)  # consumer NC-1's last arrival


@txl.jit
def flash_fwd(q_desc, k_desc, v_desc, o_ptr, lse_ptr, seqlen_q, seqlen_k,
              num_heads, group, num_m_blocks, o_row_stride, qk_scale,
              window_left, window_right, softcap_scale, cu_q_ptr, cu_k_ptr,
              descale_v, num_bh, section, sched_ptr, D: tl.constexpr,
              BN: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr,
              OVERLAP: tl.constexpr = True, PINGPONG: tl.constexpr = False,
              LOCAL: tl.constexpr = False, SOFTCAP: tl.constexpr = False,
              VARLEN: tl.constexpr = False, FP8: tl.constexpr = False,
              PERSISTENT: tl.constexpr = False, QSTAGES: tl.constexpr = 1,
              DYNAMIC: tl.constexpr = False, P_SMEM: tl.constexpr = False,
              CONSUMERS: tl.constexpr = 2, O_FROM_REGS: tl.constexpr = False,
              CONSUMER_BOUNDS: tl.constexpr = False):
    """Grid: (ceil(seqlen_q / BM), batch * num_heads), one work tile (BM =
    64 * CONSUMERS query rows of one head) per CTA; PERSISTENT: (CTAs,), each CTA walks
    tiles program_id, program_id + CTAs, ... of tile_at's order over
    num_m_blocks * num_bh tiles (num_bh = batch * num_heads; `section`
    (batch, head) pairs at a time). q/o rows are
    [batch * seqlen_q, num_heads * D]; k/v rows [batch * seqlen_k,
    (num_heads / group) * D]; lse is [batch, num_heads, seqlen_q] fp32.

    PERSISTENT: the K/V ring and its phases run on across a CTA's tiles
    (block j of a tile is ring position `first + j`, first = the blocks of
    the CTA's earlier tiles), so the producer streams the next tile's Q
    and first K/V blocks while the consumers finish the previous tile and
    store it. Q has QSTAGES slots (two Q tiles each); a slot is refilled
    once both consumers are done with it (q_empty: after their last
    wgmma; at head dim 256, where Q also serves the epilogue, after the
    epilogue).

    DYNAMIC (with PERSISTENT): tile_at's order is dealt on demand, FA3's
    scheduler: a CTA starts with tile program_id; as its producer starts a
    tile it claims the CTA's next one from the counter sched_ptr[0] (zero
    at launch; tile = atomic_add + CTAs), and it hands each number to the
    consumers in sched_ptr[1 + program_id * QSTAGES + slot], published by
    the Q slot's q_full; past the last tile it hands them that number with a bare
    arrival, and they stop. Tiles of different lengths (causal) then end
    at nearly the same time on every SM. Without DYNAMIC sched_ptr is
    not read.

    CAUSAL bounds keys on the right: query i sees keys k <= i + seqlen_k -
    seqlen_q + window_right (window_right = 0: causal). LOCAL bounds them
    on the left: k >= i + seqlen_k - seqlen_q - window_left. Blocks wholly
    outside the window are neither loaded nor visited. SOFTCAP: the scores
    are softcap * tanh(S * softcap_scale) with softcap_scale = scale /
    softcap (qk_scale is then softcap * log2(e)).

    VARLEN: the batch is packed, q/o rows [total_q, num_heads * D], k/v
    rows [total_k, ...]; sequence b is rows cu_q[b] .. cu_q[b+1]-1 (cu_k
    for keys, int32); seqlen_q and seqlen_k are total_q and total_k, lse
    is [num_heads, total_q]; num_m_blocks counts the longest sequence's
    query blocks, and tiles past their sequence's end do nothing.

    FP8: q, k e4m3 as above; v_desc is V^T, [(num_heads / group) * D,
    keys] with [D, BN] boxes, sequence b's keys from column vt_start on,
    each group of 32 in txl.acc_to_dot_a_columns(8)'s order (in key order
    with P_SMEM, which routes P through shared memory); o is bf16; the
    descales dq * dk are folded into qk_scale (or softcap_scale) and
    descale_v multiplies O.

    CONSUMERS: 2 or 3 consumer warpgroups of 64 query rows each (launch
    with num_warpgroups = 1 + CONSUMERS). O_FROM_REGS: O is stored from
    the accumulator's registers (head dim 256: no staging through Q).
    CONSUMER_BOUNDS (CAUSAL without LOCAL): each consumer computes only
    the blocks its own rows see and masks only its own diagonal (consume)."""
    tl.static_assert(PERSISTENT or not DYNAMIC,
                     "DYNAMIC is an order of the PERSISTENT launch")
    HM: tl.constexpr = 64  # query rows per consumer warpgroup
    NC: tl.constexpr = CONSUMERS
    tl.static_assert(NC == 2 or NC == 3, "two or three consumer warpgroups")
    dt = q_desc.dtype
    # V's tile: [BN, D], or V^T's [D, BN] (FP8).
    VR: tl.constexpr = D if FP8 else BN
    VC: tl.constexpr = BN if FP8 else D
    # Slot i holds consumer c's Q tile at NC * i + c.
    q_bufs = txl.smem_alloc([HM, D], dtype=dt, num_stages=NC * QSTAGES)
    k_bufs = txl.smem_alloc([BN, D], dtype=dt, num_stages=STAGES)
    v_bufs = txl.smem_alloc([VR, VC], dtype=dt, num_stages=STAGES)
    if FP8 and P_SMEM:
        # Each consumer's P, in e4m3, for the P V wgmma (the older path,
        # kept for comparison: P through shared memory).
        p_bufs = txl.smem_alloc([HM, BN], dtype=dt, num_stages=NC)
    else:
        p_bufs = q_bufs  # unused: P stays in registers
    q_full = txl.mbar_alloc(1, num_stages=QSTAGES)
    # Q's slot is free after one arrival per consumer warpgroup, or (head
    # dim 256 without O_FROM_REGS: its tile is the epilogue's scratch) one
    # per thread.
    q_empty = txl.mbar_alloc(NC if D <= 128 or O_FROM_REGS else NC * 128,
                             num_stages=QSTAGES)
    k_full = txl.mbar_alloc(1, num_stages=STAGES)
    v_full = txl.mbar_alloc(1, num_stages=STAGES)
    # One arrival per consumer warpgroup: K_j is free once S_j has retired,
    # V_j once P_j V_j has.
    k_empty = txl.mbar_alloc(NC, num_stages=STAGES)
    v_empty = txl.mbar_alloc(NC, num_stages=STAGES)
    num_tiles = num_m_blocks * num_bh
    # DYNAMIC: this CTA's slots of the tile numbers the producer hands the
    # consumers (sched_ptr[0] is the launch's tile counter).
    tile_slots = sched_ptr + 1 + tl.program_id(0) * QSTAGES
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        if DYNAMIC:
            first = 0
            tile_i = 0
            t = tl.program_id(0)
            while t < num_tiles:
                # Claim the next tile in tile_at's order that no CTA has
                # taken (the first num_programs are the CTAs' first tiles)
                # now, so the atomic's latency hides under this tile's
                # loads (FA3 claims ahead the same way).
                nxt = tl.atomic_add(sched_ptr, 1) + tl.num_programs(0)
                first += produce_tile(
                    t, first, tile_i, q_bufs, k_bufs, v_bufs, q_full,
                    q_empty, k_full, v_full, k_empty, v_empty, q_desc,
                    k_desc, v_desc, seqlen_q, seqlen_k, num_heads, group,
                    num_m_blocks, num_bh, section, window_left,
                    window_right, cu_q_ptr, cu_k_ptr, tile_slots, HM, BN, D,
                    STAGES, QSTAGES, CAUSAL, PERSISTENT, LOCAL, VARLEN, FP8,
                    DYNAMIC, NC)
                tile_i += 1
                t = nxt
            produce_end(q_full, q_empty, tile_slots, t, tile_i, QSTAGES)
        elif PERSISTENT:
            first = 0
            tile_i = 0
            for t in range(tl.program_id(0), num_tiles, tl.num_programs(0)):
                first += produce_tile(
                    t, first, tile_i, q_bufs, k_bufs, v_bufs, q_full,
                    q_empty, k_full, v_full, k_empty, v_empty, q_desc,
                    k_desc, v_desc, seqlen_q, seqlen_k, num_heads, group,
                    num_m_blocks, num_bh, section, window_left,
                    window_right, cu_q_ptr, cu_k_ptr, tile_slots, HM, BN, D,
                    STAGES, QSTAGES, CAUSAL, PERSISTENT, LOCAL, VARLEN, FP8,
                    DYNAMIC, NC)
                tile_i += 1
        else:
            produce_tile(0, 0, 0, q_bufs, k_bufs, v_bufs, q_full, q_empty,
                         k_full, v_full, k_empty, v_empty, q_desc, k_desc,
                         v_desc, seqlen_q, seqlen_k, num_heads, group,
                         num_m_blocks, num_bh, section, window_left,
                         window_right, cu_q_ptr, cu_k_ptr, tile_slots, HM, BN,
                         D, STAGES, QSTAGES, CAUSAL, PERSISTENT, LOCAL,
                         VARLEN, FP8, DYNAMIC, NC)
    # Registers per consumer thread: what the producer's 24 leave of the
    # 64K, in steps of 8 (setmaxnreg's): 240 for two consumers, 160 for
    # three (24 + 3 * 160 = 504 of 512 per thread slot).
    REGS: tl.constexpr = 240 if NC == 2 else 160
    for c in tl.static_range(NC):
        if txl.is_warpgroup([c + 1]):
            txl.reg_alloc(REGS)
            consumer(c, num_tiles, tile_slots, q_bufs, q_full, q_empty,
                     txl.get_buffer(p_bufs, c), k_bufs, v_bufs, k_full,
                     v_full, k_empty, v_empty, o_ptr, lse_ptr, seqlen_q,
                     seqlen_k, num_heads, num_m_blocks, num_bh, section,
                     o_row_stride, qk_scale, window_left, window_right,
                     softcap_scale, cu_q_ptr, cu_k_ptr, descale_v, HM, BN, D,
                     STAGES, QSTAGES, CAUSAL, OVERLAP, PINGPONG, PERSISTENT,
                     LOCAL, SOFTCAP, VARLEN, FP8, DYNAMIC, P_SMEM, NC,
                     O_FROM_REGS, CONSUMER_BOUNDS)
