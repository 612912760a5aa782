"""FlashAttention backward for Hopper, written in txl.

With P = softmax(S * scale), S = Q K^T, O = P V and the output gradient dO,

    dV = P^T dO,   dP = dO V^T,   dS = P o (dP - delta),
    dQ = scale * dS K,   dK = scale * dS^T Q,

where delta = rowsum(dO o O) (= rowsum(P o dP)). P is never stored: it is
recomputed from the forward's LSE, P = exp2(S * scale * log2(e) - LSE2)
with LSE2 = LSE * log2(e) (one FMA and one ex2 per score, as in the
forward).

Two kernels:

- `bwd_preprocess`, one program per 64 query rows of one head: delta, and
  LSE2 with the rows that see no key (LSE = -inf) and the padding rows
  past seqlen_q set to +inf, so their P is exp2(finite - inf) = 0 without
  a mask. Both are written into [batch * heads, seqlen_q rounded up to 64]
  buffers that the main kernel reads without masks. A gradient of LSE
  itself (return_lse=True and a loss that uses it) enters here too: since
  d LSE / d S = P, it adds P * dLSE to dS, which is delta -= dLSE.

- `flash_bwd`, one CTA per BN = 128 keys of one (batch, kv head) (or,
  PERSISTENT, one per SM walking such tiles: below), FA2's outer loop
  over key blocks: dK and dV of its keys stay in registers
  while the CTA walks every query block (of every query head of the GQA
  group, so dK and dV come out summed over the group, with no atomics and
  no extra pass). dQ, which every key block contributes to, is added in
  fp32 to a [batch, seqlen_q rounded up, heads, head_dim] buffer by TMA
  reduce-adds and converted to the input type afterwards.

The schedule (three warpgroups, num_warps=4, num_warpgroups=3):

- warpgroup 0, the producer (reg_dealloc), loads the CTA's K and V once and
  then streams Q_i and dO_i (BM = 64 query rows each) through a
  STAGES-deep ring, each with its rows' statistics (LSE2 with Q, delta
  with dO: 1-D TMA boxes of 64 fp32 from the flat [2, rows, sq_pad]
  buffer): separate `full` barriers, so S^T can start before dO has
  landed, and one `empty` per stage that both consumers arrive on.
- warpgroups 1 and 2, the consumers (reg_alloc), each own HN = 64 of the
  CTA's keys and compute everything transposed (keys as wgmma's M):

      S^T  = K_w Q_i^T - LSE2[None, :] / c   (both operands in shared
                                memory; the accumulator starts there)
      dP^T = V_w dO_i^T - delta[None, :]
      P^T  = exp2(S^T * c)
      dV_w += P^T dO_i          (P^T from registers: register-A wgmma)
      dS^T = P^T o dP^T         (P^T as rounded for dV, P16_DS)
      dK_w += dS^T Q_i          (dS^T from registers)

  Transposing is what lets P^T and dS^T, the accumulators of S^T and
  dP^T, be the A operands of dV and dK straight from registers. The
  wgmmas overlap the CUDA-core work: P^T is computed while dP^T's wgmma
  runs, dS^T while dV's does.

  dQ_i = dS K needs all 128 keys' dS: each consumer writes its dS^T
  (fp16/bf16, [HN, BM]) to shared memory, the two meet at named barrier
  10, and consumer w then computes the column half w of dQ_i,
      dQ_i[:, w*DC : (w+1)*DC] = sum over w' of (dS^T_w')^T K[w', w],
  where K[w', c] is keys w'*HN.. and columns c*DC.. of K (DC = D / 2): at
  D = 128 a view of K's tile (a column half is one 128-byte swizzle
  chunk), at D = 64 a separately loaded [HN, DC] copy. The dS^T tiles are
  double-buffered by iteration parity: a consumer rewrites a tile two
  iterations later, after both have passed the barrier of the iteration
  in between, which each reaches only after retiring its dQ wgmmas.

  DQ_FIRST issues dK's wgmma after dQ's instead of before the dS^T
  store: the consumer then retires dV and dQ only (dot_wait(1)) and runs
  dQ's epilogue while dK's wgmma keeps the tensor core busy, instead of
  waiting for all three first; dK's start moves behind barrier 10, under
  dV's wgmma. Also in PINGPONG's turns below, at D = 64 only (at 128 the
  dQ accumulator next to dK's operands does not fit: ptxas serializes).

  That barrier puts the two consumers in lockstep: both reach it at the
  same point of every iteration, so both drain their wgmmas (dQ's wait)
  and run dQ's epilogue (scaling, the fp32 tile, the TMA issue) and the
  start of the next iteration at the same time, with nothing in the
  tensor cores. PINGPONG de-phases them, FA3-style, by taking turns:

      iteration t, consumer t % 2 ("heavy")    the other ("light")
      S^T, dP^T, P^T, dV, dS^T, dK             the same
      dS^T_w -> shared memory                  dS^T_w -> shared memory
      retire dV, dK; release the stage         arrive on barrier 12 + t%2
      wait at barrier 12 + t%2                 retire dV, dK; release
      dQ_i = sum over w of (dS^T_w)^T K_w      on to iteration t + 1
             (all D columns, m64nDk16)
      dQ's epilogue, reduce-add

  The light consumer does not wait for the heavy one: it starts
  iteration t + 1 (where it is heavy) while the heavy one's dQ wgmmas
  and epilogue run, and then waits for the other's dS^T there, while the
  other's next iteration keeps the tensor cores busy. Each consumer does
  dQ every other iteration, at twice the width (one m64n128k16 chain at
  D = 128 instead of two m64n64k16 ones: K's row half is the B operand as
  loaded, no column views or quarter copies), and takes 4 named barriers
  an iteration on average instead of 5. Why the turns are safe:
  barrier 12 + h is used only in h's turns (the light consumer arrives,
  h waits), and the light one's next arrival there, two iterations on,
  comes after its own turn's wait in between, which needs h's arrival
  after h's turn: no phase of it collects arrivals of two turns. A dS^T
  tile is rewritten two iterations on; its only reader, that iteration's
  heavy consumer, retires its dQ wgmmas before it arrives on the next
  iteration's barrier, which the writer (heavy then) waits for before
  writing again, or is the writer itself. The cost: the dQ accumulator
  (64 registers at D = 128, allocated after dV and dK retire) and two
  32 KB fp32 dQ tiles instead of two of 16 KB (226 KB of shared memory at
  D = 128, so no third Q/dO stage; at D = 64 the K quarters go, 146 KB).
  The host's defaults (txl.ops._BWD_PINGPONG, _BWD_STAGES) follow the
  H100 A/B of bench/RESULTS.md (session 14): PINGPONG with a four-stage
  ring at D = 64 (13% ahead non-causal, 5% causal); at D = 128 taking
  turns measured equal non-causal and 2% behind causal, so the lockstep
  stays there (what bounds D = 128 is not the lockstep).

  The dQ half goes to an fp32 tile in shared memory and its leader issues
  one TMA reduce-add (txl.tma_store(..., reduce="add"), PTX
  cp.reduce.async.bulk.tensor): L2 adds the 16 KB while the consumer
  moves on. Adding from registers instead (DQ_TMA=False: 32 fp32 atomics
  per thread per iteration, red.global.add.v2.f32 in pairs) is 14% slower
  at D = 128 and 22% at D = 64; scalar atom.add was 1.7x slower than that
  (bench/RESULTS.md).

  dK and dV leave through each consumer's own K and V tiles (smem_store,
  then loads in the layout of the masked global store): no conversion
  scratch, which is what leaves room for the dQ tiles.

Registers. Each consumer holds dK and dV of its 64 keys (128 fp32
registers a thread at D = 128) through the whole loop, and at the softmax
S^T, dP^T and P^T (32 each) besides, of the 240 it has. So nothing else
the loop needs may stay live across it:
- the statistics are read from shared memory (in the layout of S^T's
  columns, 16 registers each) straight into the starting values of the
  S^T and dP^T accumulators (-LSE2 / c and -delta), and are dead before
  the softmax; with softcap (tanh needs S itself) or c = 0 (the host's
  FOLD_LSE) LSE2 is read at its FMA instead;
- dS^T is computed from P^T's 16-bit copy (which dV's wgmma holds until
  it retires), not a second, fp32 one (P16_DS): 16 registers less at
  the dS step, for 32 conversions and one more rounding of P (to the
  input type, which dS^T is rounded to anyway). With the other changes
  the fp32 copy (P16_DS=False) no longer spills in the loop either
  (causal: 16 B stored / 60 loaded outside it);
- K_w and V_w are indexed with a loop-variant zero (KEEP_DESC), as in
  mla.py: indexed with constants, their wgmma descriptors (64 bits per
  k-step) were hoisted out of the loop and spilled;
- dQ is added in its own iteration. DQ_LATE (off; TMA reduce-add only)
  adds it in the next one, after S^T's wgmma is issued: on the H100 that
  was 7% slower non-causal and even causal (B4 H32 S8192 D128 fp16), as
  it delays dP^T's issue. Leaving the dQ wgmmas in flight across the
  back edge as well, retired by a dot_wait(1) behind the next S^T, made
  ptxas serialize every wgmma of the kernel (C7514): the loop-carried
  accumulator needs register moves at the back edge, which read it
  before the wait.
ptxas then spills nothing at D = 128 fp16, causal or not (it spilled
420 / 472 B at dc85849, ~14 stores and ~20 loads an iteration), and
nothing at D = 64; bf16 D = 128 and the softcap variants still spill a
little (the table in bench/RESULTS.md, session 13).
Head dim 256 does not fit: dK and dV alone would be 256 registers a
thread (a thread has 255), and K, V and a two-stage Q/dO ring 256 KB of
shared memory (Hopper has 227 KB); the API refuses it.

Persistent launch (PERSISTENT=True; off by default: the launcher's
_BWD_PERSISTENT, `persistent=` of the *_backward_into functions): one CTA
per SM walks work tiles (one key block of BN keys of one (batch, kv
head), what a CTA of the grid launch does) in tile_at's order: key
blocks outer and (batch, kv head) pairs inner, in sections of pairs
whose Q, dO and dQ accumulator fit L2 (the launcher's
_bwd_heads_per_section; causal only: non-causal takes one pair at a
time, the grid launch's order), so the CTAs running at once read the
same few heads' query blocks; causal work then goes longest first, since
key block 0 is seen by every query. The tiles are dealt round-robin
(tile program_id, program_id + CTAs, ...) or on demand (DYNAMIC: each
CTA's producer takes the next tile from a counter as it starts one, and
hands its number to the consumers in a slot that kv_full's phase
publishes). Causal tiles differ in length: counting each tile's
iterations, a static deal gives the busiest of 132 SMs 1.5-3% more than
the mean at the benchmark's shapes; taking the next tile when free (as
the grid launch's hardware scheduler does too) 0-1%.
- The Q/dO ring runs on across a CTA's tiles: producer and consumers
  count the iterations of its earlier tiles (`first`), and iteration t of
  a tile is ring position first + t, which gives its stage, its phases,
  its dS^T tiles' parity and its PINGPONG turn (so the turns alternate
  without a break across tiles, and the argument above holds as it is).
- K and V are loaded once per tile on kv_full (phase = the tile's number
  within the CTA, tile_i) and handed back on kv_empty, which every
  consumer thread arrives on (behind a proxy fence) once dK and dV have
  left through the K and V tiles.
- produce_tile issues a tile's first min(STAGES, iterations) Q/dO loads
  before it waits for kv_empty: their stages are freed by the previous
  tile's last iterations, so they land while the consumers still run
  that tile's epilogue; K and V follow as soon as the epilogue hands them
  back (they cannot come earlier: a second K/V pair does not fit shared
  memory at D = 128, and the epilogue goes through the K/V tiles), then
  the rest of the tile's Q/dO.
- Barrier 11 (once per tile, both consumers) and the named barriers 10,
  12 and 13 keep their meaning: both consumers take the same iterations
  of the same tiles, and no consumer starts a tile before both have
  arrived on kv_empty.
What it saves is the grid launch's per-CTA start (barrier setup, K/V
and the first Q/dO loads with nothing in flight) and its tail: a CTA of
the grid launch leaves the SM idle between its epilogue and the next
CTA's first wgmma. Registers: the tile loop's few scalars live in
local memory between tiles (ptxas, 0-80 B), none in the per-block loops
(the softcap variants excepted: 1-4 local reloads an iteration, where
the grid launch already spills around its loops). Not timed on a GPU
yet: bench/ab_attention_bwd.py's variants new-pers and new-pers-dyn are
the A/B.

Variable-length batches (VARLEN, flash_attn_varlen_func): sequence b's
bounds come from cu_seqlens (`sequence`); LSE2 and delta are laid out
per head as [total_q + batch * 64, rounded up to 64] so that every
sequence has its own padding up to a whole query block, starting at a
multiple of 64 (`sequence`) (+inf LSE2, so P = 0 there without a
mask); a query block that runs past its sequence reads the next one's
Q and dO rows (finite) and adds exact zeros to its dQ rows; dQ is
accumulated into [total_q + 64, ...] so the last block stays inside.

Masks cost only where needed: for causal attention (bottom-right aligned,
query i sees key k <= i + seqlen_k - seqlen_q) query blocks wholly before
the CTA's first key are skipped, and only those that straddle the diagonal
compare indices; the last key block compares keys against seqlen_k when it
is ragged. Query rows past seqlen_q need no mask (LSE2 = +inf there). TMA
reads K, V, Q, dO as 2-D [batch * seqlen, heads * head_dim] tensors, so a
block running past a sequence reads the next batch's rows (finite, then
zeroed by P = 0) or zeros.
"""
import triton.language as tl
import txl

from .flash_attn import section_order

LOG2E = 1.4426950408889634
BM = 64    # query rows per iteration
HN = 64    # keys per consumer warpgroup
BN = 128   # keys per CTA


@txl.jit
def sequence(b, seqlen_q, seqlen_k, cu_q_ptr, cu_k_ptr, sq_pad,
             num_heads, BLK: tl.constexpr, VARLEN: tl.constexpr):
    """Sequence b's first query and key rows, its lengths, and where its
    statistics (LSE2, delta) start within a head's row of them: dense,
    [batch, heads, sq_pad] (seqlen_q rounded up to BLK); VARLEN, [heads,
    sq_pad] with sq_pad = total_q + batch * BLK rounded up to BLK and
    sequence b at cu_q[b] + b * BLK rounded down to BLK, so that every
    sequence has its own padding up to a whole query block (sequence b-1
    ends by then) and every block of statistics starts at a multiple of
    BLK elements: the main kernel's TMA boxes of them stay aligned."""
    q_off = b * seqlen_q
    k_off = b * seqlen_k
    stat_off = b * num_heads * sq_pad
    if VARLEN:
        q_off = tl.load(cu_q_ptr + b)
        k_off = tl.load(cu_k_ptr + b)
        stat_off = (q_off + b * BLK) // BLK * BLK
        seqlen_q = tl.load(cu_q_ptr + b + 1) - q_off
        seqlen_k = tl.load(cu_k_ptr + b + 1) - k_off
    return q_off, k_off, stat_off, seqlen_q, seqlen_k


@txl.jit
def bwd_preprocess(o_ptr, do_ptr, lse_ptr, dlse_ptr, lse2_ptr, delta_ptr,
                   seqlen_q, sq_pad, num_heads, row_stride, cu_q_ptr,
                   D: tl.constexpr, BLK: tl.constexpr,
                   HAS_DLSE: tl.constexpr, VARLEN: tl.constexpr = False):
    """Grid (sq_pad / BLK, batch * heads); VARLEN: (the longest sequence's
    query blocks, batch * heads). o/do are [batch * seqlen_q (total_q),
    heads * D]; lse/dlse [batch * heads, seqlen_q] ([heads, total_q]);
    lse2/delta laid out as `sequence` says, fp32."""
    bh = tl.program_id(1)
    b = bh // num_heads
    h = bh % num_heads
    lse_base = bh * seqlen_q
    total_q = seqlen_q
    q_off, k_off, stat_off, seqlen_q, seqlen_k = sequence(
        b, seqlen_q, 0, cu_q_ptr, cu_q_ptr, sq_pad, num_heads, BLK, VARLEN)
    if VARLEN:
        lse_base = h * total_q + q_off
    rows = tl.program_id(0) * BLK + tl.arange(0, BLK)
    live = rows < seqlen_q
    offs = (q_off + rows)[:, None] * row_stride + h * D + \
        tl.arange(0, D)[None, :]
    o = tl.load(o_ptr + offs, mask=live[:, None], other=0.0).to(tl.float32)
    do = tl.load(do_ptr + offs, mask=live[:, None], other=0.0).to(tl.float32)
    delta = tl.sum(o * do, 1)
    lse = tl.load(lse_ptr + lse_base + rows, mask=live, other=float("-inf"))
    if HAS_DLSE:
        delta -= tl.load(dlse_ptr + lse_base + rows, mask=live, other=0.0)
    # P = exp2(S c - LSE2) = 0 for rows that see no key and for padding.
    lse2 = tl.where(lse == float("-inf"), float("inf"), lse * LOG2E)
    # Only the sequence's own (padded) blocks: with VARLEN the grid
    # covers the longest sequence.
    mine = (rows >= 0) & (tl.program_id(0) * BLK < seqlen_q)
    stat_base = h * sq_pad + stat_off
    tl.store(lse2_ptr + stat_base + rows, lse2, mask=mine)
    tl.store(delta_ptr + stat_base + rows, delta, mask=mine)


@txl.jit
def load_kv(k_bufs, kq_bufs, v_bufs, kv_full, k_desc, v_desc, kq_desc, k_row,
            kv_col, D: tl.constexpr, PINGPONG: tl.constexpr):
    """K and V of the tile's keys (as two [HN, D] row halves, and K again
    as four [HN, DC] quarters for the lockstep dQ at D = 64), on
    kv_full."""
    ELEM: tl.constexpr = k_desc.dtype.primitive_bitwidth // 8
    DC: tl.constexpr = D // 2
    QUARTERS: tl.constexpr = D != 128 and not PINGPONG
    COPIES: tl.constexpr = 3 if QUARTERS else 2  # K, V (and K quarters)
    txl.mbar_expect(kv_full, COPIES * BN * D * ELEM)
    for w in tl.static_range(2):
        txl.tma_load(txl.get_buffer(k_bufs, w), k_desc,
                     [k_row + w * HN, kv_col], kv_full)
        txl.tma_load(txl.get_buffer(v_bufs, w), v_desc,
                     [k_row + w * HN, kv_col], kv_full)
        if QUARTERS:
            for c in tl.static_range(2):
                txl.tma_load(txl.get_buffer(kq_bufs, 2 * w + c), kq_desc,
                             [k_row + w * HN, kv_col + c * DC], kv_full)


@txl.jit
def load_step(q_bufs, do_bufs, lse2_bufs, delta_bufs, q_full, do_full, empty,
              q_desc, do_desc, stats_desc, r, t, q_row0, q_col0, i_lo,
              n_iter, stat_off, stat_plane, h0, sq_pad, D: tl.constexpr,
              STAGES: tl.constexpr):
    """Iteration t of the tile (query block i_lo + t % n_iter of query
    head h0 + t // n_iter) into ring position r, once the consumers have
    freed its stage: Q_i with its LSE2 and dO_i with its delta (BM fp32
    each, from the flat statistics: LSE2 at stat_off + h * sq_pad +
    query, delta stat_plane further)."""
    ELEM: tl.constexpr = q_desc.dtype.primitive_bitwidth // 8
    g = t // n_iter
    i = i_lo + t % n_iter
    s = r % STAGES
    txl.mbar_wait(txl.get_buffer(empty, s), ((r // STAGES) & 1) ^ 1)
    row = q_row0 + i * BM
    col = q_col0 + g * D
    stat = stat_off + (h0 + g) * sq_pad + i * BM
    qb = txl.get_buffer(q_full, s)
    txl.mbar_expect(qb, BM * D * ELEM + BM * 4)
    txl.tma_load(txl.get_buffer(q_bufs, s), q_desc, [row, col], qb)
    txl.tma_load(txl.get_buffer(lse2_bufs, s), stats_desc, [stat], qb)
    db = txl.get_buffer(do_full, s)
    txl.mbar_expect(db, BM * D * ELEM + BM * 4)
    txl.tma_load(txl.get_buffer(do_bufs, s), do_desc, [row, col], db)
    txl.tma_load(txl.get_buffer(delta_bufs, s), stats_desc,
                 [stat_plane + stat], db)


@txl.jit
def produce(k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs, delta_bufs,
            kv_full, q_full, do_full, empty, k_desc, v_desc, kq_desc, q_desc,
            do_desc, stats_desc, k_row, kv_col, q_row0, q_col0, i_lo, n_iter,
            total, stat_off, stat_plane, h0, sq_pad,
            D: tl.constexpr, STAGES: tl.constexpr,
            PINGPONG: tl.constexpr = False):
    """One CTA's only tile (the grid launch): K and V of its keys once,
    then Q_i, dO_i and their statistics of every iteration into the
    ring."""
    load_kv(k_bufs, kq_bufs, v_bufs, kv_full, k_desc, v_desc, kq_desc, k_row,
            kv_col, D, PINGPONG)
    for t in range(total):
        load_step(q_bufs, do_bufs, lse2_bufs, delta_bufs, q_full, do_full,
                  empty, q_desc, do_desc, stats_desc, t, t, q_row0, q_col0,
                  i_lo, n_iter, stat_off, stat_plane, h0, sq_pad, D, STAGES)


@txl.jit
def loop_zero(it):
    """0, as a value that changes with the loop counter `it` (< 2^30) for
    the compiler (as in mla.py)."""
    return it >> 30


@txl.jit
def k_quarter(k_bufs, kq_bufs, w, c, D: tl.constexpr):
    """Keys w*HN.. and columns c*DC.. of the CTA's K, [HN, DC]: a view of
    K's row half w where the column half is a whole 128-byte swizzle chunk
    (D = 128), else the separately loaded copy."""
    DC: tl.constexpr = D // 2
    if D == 128:
        return txl.smem_slice(txl.get_buffer(k_bufs, w), c * DC, DC, 1)
    return txl.get_buffer(kq_bufs, 2 * w + c)


@txl.jit
def step(k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs, delta_bufs,
         ds_bufs, dq_tile, q_full, do_full, empty, dk, dv, dq_pend, pend_row,
         pend_col, t, i, dq_ptr, dq_desc, dq_row0, dq_col, dq_row_stride,
         keys, seqlen_k, causal_shift, left_shift, softcap_scale, qk_scale,
         neg_inv_c, softmax_scale, leader, D: tl.constexpr,
         STAGES: tl.constexpr,
         CAUSAL: tl.constexpr, MASK: tl.constexpr, ROLE: tl.constexpr,
         DQ_TMA: tl.constexpr, LOCAL: tl.constexpr, SOFTCAP: tl.constexpr,
         P16_DS: tl.constexpr, DQ_LATE: tl.constexpr,
         KEEP_DESC: tl.constexpr, FOLD_LSE: tl.constexpr,
         PINGPONG: tl.constexpr, DQ_FIRST: tl.constexpr):
    """Query block i (iteration t) against this consumer's HN keys. With
    DQ_LATE, the previous iteration's dQ part (dq_pend, for dq_acc rows
    pend_row.., columns pend_col..) is added here, under S^T's wgmma, and
    this one's is returned instead of added."""
    DC: tl.constexpr = D // 2
    s = t % STAGES
    phase = (t // STAGES) & 1
    # The per-query statistics come with Q and dO (the producer's TMA) and
    # are read from shared memory straight into the layout of S^T's
    # columns, and both go into accumulators' starting values rather than
    # being held through the softmax: S^T starts at -LSE2 / c, so P^T =
    # exp2(S^T c), and dP^T at -delta, so dS^T = P^T o dP^T. Each is 16
    # registers a thread in that layout, which is what made ptxas spill
    # when they were held next to dK, dV, S^T, dP^T and P^T (224 of 240).
    COLS: tl.constexpr = txl.SliceLayout(
        0, txl.NVMMADistributedLayout([3, 0], [4, 1], [16, BM, 16]))
    # K_w and V_w indexed by a loop-variant zero (KEEP_DESC): their wgmma
    # descriptors are then built in the loop, not hoisted out of it and
    # held (spilled) across it.
    z = loop_zero(t) if KEEP_DESC else 0
    k_w = txl.get_buffer(k_bufs, ROLE + z)
    v_w = txl.get_buffer(v_bufs, ROLE + z)
    txl.mbar_wait(txl.get_buffer(q_full, s), phase)
    q = txl.get_buffer(q_bufs, s)
    # S^T [HN, BM]; softcap needs S itself (tanh), and -LSE2 / c is
    # finite only for c = qk_scale not (nearly) 0 (the host's FOLD_LSE);
    # neg_inv_c = -1 / c, computed once outside the loop.
    FOLD: tl.constexpr = FOLD_LSE and not SOFTCAP
    if FOLD:
        lse2 = txl.frag_smem_load(txl.get_buffer(lse2_bufs, s), [BM], COLS)
        st = tl.dot(k_w, q.T, tl.broadcast_to(
            (lse2 * neg_inv_c)[None, :], [HN, BM]))
    else:
        st = tl.dot(k_w, q.T)
    if DQ_LATE:
        add_dq(dq_pend, dq_tile, dq_ptr, dq_desc, pend_row, pend_col,
               dq_row_stride, DC, DQ_TMA)
    txl.mbar_wait(txl.get_buffer(do_full, s), phase)
    do = txl.get_buffer(do_bufs, s)
    delta = txl.frag_smem_load(txl.get_buffer(delta_bufs, s), [BM], COLS)
    dpt = tl.dot(v_w, do.T, tl.broadcast_to(-delta[None, :], [HN, BM]))
    cols = i * BM + tl.arange(0, BM)  # query indices
    txl.dot_wait(1)  # S^T is ready; dP^T runs on
    if SOFTCAP:
        # The forward's scores were softcap * tanh(S * scale / softcap);
        # their derivative by S * scale is 1 - tanh^2.
        st = tl.tanh(st * softcap_scale)
        dcap = 1.0 - st * st
    if FOLD:
        st = st * qk_scale
    else:
        lse2 = txl.frag_smem_load(txl.get_buffer(lse2_bufs, s), [BM], COLS)
        st = tl.fma(st, qk_scale, -lse2[None, :])
    if MASK:
        # After the scaling: a masked -inf times c = 0 (softmax_scale 0,
        # uniform attention) would be NaN.
        keep = keys[:, None] < seqlen_k
        if CAUSAL:
            keep = keep & (keys[:, None] <= cols[None, :] + causal_shift)
        if LOCAL:
            keep = keep & (keys[:, None] >= cols[None, :] + left_shift)
        st = tl.where(keep, st, float("-inf"))
    pt = tl.exp2(st)
    pt16 = pt.to(do.dtype)
    dv = tl.dot(pt16, do, dv)
    if SOFTCAP:
        pt = pt * dcap  # dS's factor, folded in now: dcap dies here
    elif P16_DS:
        # P^T in 16 bits is held for dV's wgmma anyway: the fp32 copy dies.
        pt = pt16.to(tl.float32)
    txl.dot_wait(1)  # dP^T is ready; dV runs on
    dst = (pt * dpt).to(do.dtype)
    if not DQ_FIRST:
        dk = tl.dot(dst, q, dk)
    # dQ needs both consumers' dS^T: through shared memory (smem_store
    # ends with the async-proxy fence and a warpgroup barrier, so the
    # other consumer's wgmmas see it after barrier 10, or 12 + ROLE).
    half = (t % 2) * 2
    txl.smem_store(txl.get_buffer(ds_bufs, half + ROLE), dst)
    if PINGPONG:
        if t % 2 == ROLE:
            dk = whole_dq(k_bufs, ds_bufs, dq_tile, empty, s, half, z,
                          dq_ptr, dq_desc, dq_row0 + i * BM, dq_col,
                          dq_row_stride, softmax_scale, leader, dk, dst, q,
                          ROLE, D, DQ_TMA, DQ_FIRST)
        else:
            # The other consumer's turn: dS^T is there, go on.
            txl.bar_arrive(13 - ROLE, 256)
            if DQ_FIRST:
                dk = tl.dot(dst, q, dk)
            txl.dot_wait(0)
            txl.mbar_arrive(txl.get_buffer(empty, s), pred=leader)
        dq = dq_pend
    else:
        txl.bar_wait(10, 256)
        dq = tl.dot(txl.get_buffer(ds_bufs, half).T,
                    k_quarter(k_bufs, kq_bufs, 0, ROLE, D))
        dq = tl.dot(txl.get_buffer(ds_bufs, half + 1).T,
                    k_quarter(k_bufs, kq_bufs, 1, ROLE, D), dq)
        if DQ_FIRST:
            # dK after dQ: dQ's epilogue runs while dK's wgmma does.
            dk = tl.dot(dst, q, dk)
            txl.dot_wait(1)  # dV and dQ are done; dK runs on
            add_dq(dq * softmax_scale, dq_tile, dq_ptr, dq_desc,
                   dq_row0 + i * BM, dq_col + ROLE * DC, dq_row_stride, DC,
                   DQ_TMA)
            dq = dq_pend
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(empty, s), pred=leader)
        if not DQ_FIRST:
            dq = dq * softmax_scale
        if not DQ_LATE and not DQ_FIRST:
            add_dq(dq, dq_tile, dq_ptr, dq_desc, dq_row0 + i * BM,
                   dq_col + ROLE * DC, dq_row_stride, DC, DQ_TMA)
            dq = dq_pend
    return dk, dv, dq, dq_row0 + i * BM, dq_col + ROLE * DC


@txl.jit
def whole_dq(k_bufs, ds_bufs, dq_tile, empty, s, half, z, dq_ptr, dq_desc,
             row, col, row_stride, softmax_scale, leader, dk, dst, q,
             ROLE: tl.constexpr, D: tl.constexpr, DQ_TMA: tl.constexpr,
             DQ_FIRST: tl.constexpr):
    """PINGPONG, this consumer's turn: dQ_i = sum over w of (dS^T_w)^T
    K_w, all D columns, once the other consumer's dS^T is in shared
    memory (it arrives on barrier 12 + ROLE). dV's and dK's wgmmas retire
    first (this consumer's dQ would run after them anyway): the Q/dO
    stage is released, and P^T's and dS^T's registers are free for dQ's
    64 (D = 128) before it is issued. DQ_FIRST (the registers allow it at
    D = 64): dK (dS^T_w Q, not issued yet) goes after dQ's wgmmas and
    runs under dQ's epilogue. Returns dK."""
    if not DQ_FIRST:
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(empty, s), pred=leader)
    txl.bar_wait(12 + ROLE, 256)
    dq = tl.dot(txl.get_buffer(ds_bufs, half).T,
                txl.get_buffer(k_bufs, 0 + z))
    dq = tl.dot(txl.get_buffer(ds_bufs, half + 1).T,
                txl.get_buffer(k_bufs, 1 + z), dq)
    if DQ_FIRST:
        dk = tl.dot(dst, q, dk)
        txl.dot_wait(1)  # dV and dQ; dK runs on
    else:
        txl.dot_wait(0)
    dq = dq * softmax_scale
    if DQ_TMA:
        # The descriptor's block is a column half (as without PINGPONG):
        # one reduce-add per half of the tile.
        DC: tl.constexpr = D // 2
        txl.tma_store_wait(0)
        txl.smem_store(dq_tile, dq)
        for c in tl.static_range(2):
            txl.tma_store(txl.smem_slice(dq_tile, c * DC, DC, 1), dq_desc,
                          [row, col + c * DC], reduce="add")
    else:
        add_dq(dq, dq_tile, dq_ptr, dq_desc, row, col, row_stride, D,
               DQ_TMA)
    if DQ_FIRST:
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(empty, s), pred=leader)
    return dk


@txl.jit
def add_dq(dq, dq_tile, dq_ptr, dq_desc, row, col, row_stride,
           DC: tl.constexpr, DQ_TMA: tl.constexpr):
    """dq_acc[row:row+BM, col:col+DC] += dq. DQ_TMA: through this
    consumer's fp32 tile in shared memory, one TMA reduce-add
    (cp.reduce.async.bulk.tensor) issued by its leader, which L2 applies
    while the consumer goes on (it waits only before rewriting the tile,
    an iteration later). Else: red.global.add.v2.f32 from the registers,
    2.6x slower end to end (bench/RESULTS.md)."""
    if DQ_TMA:
        txl.tma_store_wait(0)
        txl.smem_store(dq_tile, dq)
        txl.tma_store(dq_tile, dq_desc, [row, col], reduce="add")
    else:
        offs = (row + tl.arange(0, BM))[:, None] * row_stride + col + \
            tl.arange(0, DC)[None, :]
        tl.atomic_add(dq_ptr + offs, dq, sem="relaxed")


@txl.jit
def consume(k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs, delta_bufs,
            ds_bufs, dq_bufs, kv_full, q_full, do_full, empty, dk_ptr, dv_ptr,
            dq_ptr, dq_desc, dq_row0, h0, group, num_heads, n0, seqlen_k,
            causal_shift, left_shift, softcap_scale, i_lo, i_full, i_fend,
            i_hi, kv_row_stride, kv_col, qk_scale, softmax_scale, first,
            tile_i, kv_empty,
            D: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr,
            ROLE: tl.constexpr, DQ_TMA: tl.constexpr, LOCAL: tl.constexpr,
            SOFTCAP: tl.constexpr, P16_DS: tl.constexpr,
            DQ_LATE: tl.constexpr, KEEP_DESC: tl.constexpr,
            FOLD_LSE: tl.constexpr, PINGPONG: tl.constexpr,
            DQ_FIRST: tl.constexpr, PERSISTENT: tl.constexpr = False):
    """One consumer, one tile: dK and dV of keys n0 + ROLE*HN .. + HN over
    query blocks i_lo .. i_hi-1 of every query head of the group; those
    in [i_full, i_fend) need no mask. PERSISTENT: the tile's iterations
    are ring positions first, first + 1, ... (the CTA's earlier tiles
    took those before), its K/V is the CTA's tile_i-th (kv_full's phase),
    and the K/V tiles are handed back on kv_empty once dK and dV have
    left through them. Returns the ring position after the tile's last
    iteration."""
    leader = txl.tid(0) % 128 == 0
    keys = n0 + ROLE * HN + tl.arange(0, HN)
    dk = tl.zeros([HN, D], dtype=tl.float32)
    dv = tl.zeros([HN, D], dtype=tl.float32)
    txl.mbar_wait(kv_full, tile_i & 1)  # (the grid launch: tile 0)
    k_w = txl.get_buffer(k_bufs, ROLE)
    v_w = txl.get_buffer(v_bufs, ROLE)
    dq_tile = txl.get_buffer(dq_bufs, ROLE if DQ_TMA else 0)  # (unused)
    dt = k_w.dtype
    DC: tl.constexpr = D // 2
    # The dQ part waiting to be added (DQ_LATE): zeros at first (added to
    # the sequence's first rows: in bounds, and exact).
    dq_pend = tl.zeros([BM, DC], dtype=tl.float32)
    pend_row = dq_row0
    pend_col = h0 * D
    neg_inv_c = -1.0 / qk_scale  # (unused without FOLD_LSE)
    # The ring position (PERSISTENT: counted on across the CTA's tiles,
    # and with it the stages' phases, the dS^T tiles' parity and the
    # PINGPONG turns).
    t = first  # (the grid launch: position 0)
    for g in range(group):
        h = h0 + g
        for i in range(i_lo, i_full):
            dk, dv, dq_pend, pend_row, pend_col = step(
                k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs,
                delta_bufs, ds_bufs, dq_tile, q_full, do_full, empty, dk, dv,
                dq_pend, pend_row, pend_col, t, i, dq_ptr, dq_desc, dq_row0,
                h * D, num_heads * D, keys, seqlen_k, causal_shift,
                left_shift, softcap_scale, qk_scale, neg_inv_c, softmax_scale,
                leader, D, STAGES, CAUSAL, True, ROLE, DQ_TMA, LOCAL, SOFTCAP,
                P16_DS, DQ_LATE, KEEP_DESC, FOLD_LSE, PINGPONG,
                DQ_FIRST)
            t += 1
        for i in range(i_full, i_fend):
            dk, dv, dq_pend, pend_row, pend_col = step(
                k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs,
                delta_bufs, ds_bufs, dq_tile, q_full, do_full, empty, dk, dv,
                dq_pend, pend_row, pend_col, t, i, dq_ptr, dq_desc, dq_row0,
                h * D, num_heads * D, keys, seqlen_k, causal_shift,
                left_shift, softcap_scale, qk_scale, neg_inv_c, softmax_scale,
                leader, D, STAGES, CAUSAL, False, ROLE, DQ_TMA, LOCAL, SOFTCAP,
                P16_DS, DQ_LATE, KEEP_DESC, FOLD_LSE, PINGPONG,
                DQ_FIRST)
            t += 1
        if LOCAL:
            # Past the window's left edge for some rows.
            for i in range(i_fend, i_hi):
                dk, dv, dq_pend, pend_row, pend_col = step(
                    k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs,
                    delta_bufs, ds_bufs, dq_tile, q_full, do_full, empty, dk,
                    dv, dq_pend, pend_row, pend_col, t, i, dq_ptr, dq_desc,
                    dq_row0, h * D, num_heads * D, keys, seqlen_k,
                    causal_shift, left_shift, softcap_scale, qk_scale,
                    neg_inv_c, softmax_scale, leader, D, STAGES, CAUSAL, True,
                    ROLE, DQ_TMA, LOCAL, SOFTCAP, P16_DS, DQ_LATE, KEEP_DESC,
                    FOLD_LSE, PINGPONG, DQ_FIRST)
                t += 1
    if DQ_LATE:
        add_dq(dq_pend, dq_tile, dq_ptr, dq_desc, pend_row, pend_col,
               num_heads * D, DC, DQ_TMA)
    if DQ_TMA:
        txl.tma_store_wait(0)
    # dK and dV leave through this consumer's own K and V tiles (no
    # conversion scratch): V_w is read by nobody else; K_w is also read by
    # the other consumer's dQ wgmmas (D = 128), so both meet first.
    live = (keys < seqlen_k)[:, None]
    offs = keys[:, None] * kv_row_stride + kv_col + tl.arange(0, D)[None, :]
    txl.smem_store(v_w, dv.to(dt))
    tl.store(dv_ptr + offs, txl.smem_load(v_w), mask=live)
    txl.bar_wait(11, 256)
    txl.smem_store(k_w, (dk * softmax_scale).to(dt))
    tl.store(dk_ptr + offs, txl.smem_load(k_w), mask=live)
    if PERSISTENT:
        # The next tile's K and V come by TMA (the async proxy) over these
        # generic-proxy writes and reads: every thread fences and arrives
        # (kv_empty counts both consumers' 256 threads), as the forward's
        # head dim 256 epilogue hands its Q tile back.
        txl.fence_proxy_async()
        txl.mbar_arrive(kv_empty)
    return t


@txl.jit
def tile_at(t, k_blocks, num_bh, section, seqlen_q, seqlen_k, sq_pad,
            num_heads, num_kv_heads, window_left, window_right, cu_q_ptr,
            cu_k_ptr, CAUSAL: tl.constexpr, LOCAL: tl.constexpr,
            VARLEN: tl.constexpr):
    """Persistent work tile t's bounds (tile_bounds) for its (key block,
    batch * num_kv_heads + kv head), taken in the forward's section_order:
    the (batch, kv head) pairs in sections of `section`, key block by key
    block within one, its pairs inner, so the CTAs running at once read
    the Q and dO (and add to the dQ) of a few heads only (section 1, the
    non-causal default, is the grid launch's order). Key blocks go from
    the first, which causal work makes the longest (key block 0 is seen
    by every query), to the last: the last tiles of the order, and the
    last wave, are the shortest."""
    kb, bh = section_order(t, k_blocks, num_bh, section)
    return tile_bounds(kb * BN, bh, seqlen_q, seqlen_k, sq_pad, num_heads,
                       num_kv_heads, window_left, window_right, cu_q_ptr,
                       cu_k_ptr, CAUSAL, LOCAL, VARLEN)


@txl.jit
def tile_bounds(n0, bh, seqlen_q, seqlen_k, sq_pad, num_heads, num_kv_heads,
                window_left, window_right, cu_q_ptr, cu_k_ptr,
                CAUSAL: tl.constexpr, LOCAL: tl.constexpr,
                VARLEN: tl.constexpr):
    """Work tile (the key block from key n0 on, batch * num_kv_heads + kv
    head bh): its batch b and kv head hk, where its sequence starts
    (`sequence`) and its lengths, its first dQ row, the shifts of the
    diagonal and of the window's left edge, and the query blocks it
    walks: [i_lo, i_hi) see some of its keys, [i_lo, i_full) and [i_fend,
    i_hi) need the mask; n_iter = i_hi - i_lo per query head."""
    b = bh // num_kv_heads
    hk = bh % num_kv_heads
    q_off, k_off, stat_off, seqlen_q, seqlen_k = sequence(
        b, seqlen_q, seqlen_k, cu_q_ptr, cu_k_ptr, sq_pad, num_heads, BM,
        VARLEN)
    dq_row0 = b * sq_pad
    if VARLEN:
        dq_row0 = q_off
    causal_shift = seqlen_k - seqlen_q + window_right
    left_shift = seqlen_k - seqlen_q - window_left
    n_qb = tl.cdiv(seqlen_q, BM)
    # Query blocks [i_lo, i_hi) see some of the tile's keys; [i_lo, i_full)
    # and [i_fend, i_hi) need the mask.
    i_lo = 0
    i_full = 0
    i_hi = n_qb
    if CAUSAL:
        # The first query that sees key n0 is n0 - shift; every query from
        # n0 + BN - 1 - shift on sees all the tile's keys (on the right).
        i_lo = tl.minimum(tl.maximum(n0 - causal_shift, 0) // BM, n_qb)
        i_full = tl.minimum(
            tl.cdiv(tl.maximum(n0 + BN - 1 - causal_shift, 0), BM), n_qb)
        i_full = tl.maximum(i_full, i_lo)
    i_fend = i_hi
    if LOCAL:
        # The last query that sees key n0 + BN - 1 is n0 + BN - 1 -
        # left_shift; queries up to n0 - left_shift see all of them.
        i_hi = tl.minimum(tl.maximum(n0 + BN - 1 - left_shift + BM, 0) // BM,
                          n_qb)
        i_hi = tl.maximum(i_hi, i_lo)
        i_full = tl.minimum(i_full, i_hi)
        i_fend = tl.minimum(tl.maximum(tl.maximum(n0 - left_shift + 1, 0) //
                                       BM, i_full), i_hi)
    if n0 + BN > seqlen_k:
        # The ragged last key block: mask everywhere.
        i_full = i_hi
        i_fend = i_hi
    if VARLEN:
        # A tile past its sequence's keys: no query blocks (its dK/dV
        # stores are all masked off).
        i_hi = tl.where(n0 < seqlen_k, i_hi, i_lo)
        i_full = tl.minimum(i_full, i_hi)
        i_fend = tl.minimum(i_fend, i_hi)
    n_iter = i_hi - i_lo
    return (n0, b, hk, q_off, k_off, stat_off, seqlen_q, seqlen_k, dq_row0,
            causal_shift, left_shift, i_lo, i_full, i_fend, i_hi, n_iter)


@txl.jit
def produce_tile(t, first, tile_i, k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs,
                 lse2_bufs, delta_bufs, kv_full, kv_empty, q_full, do_full,
                 empty, k_desc, v_desc, kq_desc, q_desc, do_desc, stats_desc,
                 stat_plane, seqlen_q, seqlen_k, sq_pad, num_heads,
                 num_kv_heads, group, k_blocks, num_bh, section, window_left,
                 window_right, cu_q_ptr, cu_k_ptr, tile_slot,
                 D: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr,
                 LOCAL: tl.constexpr, VARLEN: tl.constexpr,
                 PINGPONG: tl.constexpr, DYNAMIC: tl.constexpr):
    """PERSISTENT: the producer's loads of work tile t (tile_at), the
    CTA's tile_i-th, whose iterations take ring positions first, first +
    1, ...; returns the position after its last. Its first min(STAGES,
    iterations) Q/dO loads go first: their stages are freed by the
    previous tile's last iterations, so they land while the consumers
    still finish that tile and store its dK and dV; then its K and V, as
    soon as that epilogue has handed the K/V tiles back (kv_empty; the
    flipped parity passes at once on the fresh barrier for the first
    tile), then the rest of its iterations. A tile of no iterations
    (VARLEN past its sequence's keys, keys left of every query's window)
    still loads K and V, which keeps kv_full's and kv_empty's phases one
    per tile."""
    (n0, b, hk, q_off, k_off, stat_off, sq, sk, dq_row0, causal_shift,
     left_shift, i_lo, i_full, i_fend, i_hi, n_iter) = tile_at(
         t, k_blocks, num_bh, section, seqlen_q, seqlen_k, sq_pad,
         num_heads, num_kv_heads, window_left, window_right, cu_q_ptr,
         cu_k_ptr, CAUSAL, LOCAL, VARLEN)
    total = n_iter * group
    # Two loops, not one with the K/V load inside: K/V's descriptors and
    # coordinates are then dead in the long second one (the producer has
    # 24 registers; with them live ptxas kept some of that loop's values
    # in local memory).
    ahead = tl.minimum(total, STAGES)
    for j in range(ahead):
        load_step(q_bufs, do_bufs, lse2_bufs, delta_bufs, q_full, do_full,
                  empty, q_desc, do_desc, stats_desc, first + j, j, q_off,
                  hk * group * D, i_lo, tl.maximum(n_iter, 1), stat_off,
                  stat_plane, hk * group, sq_pad, D, STAGES)
    txl.mbar_wait(kv_empty, (tile_i & 1) ^ 1)
    if DYNAMIC:
        # The tile's number for the consumers, published by kv_full's
        # phase: a scalar store is thread 0's, the thread whose
        # arrive.expect_tx (load_kv) completes the phase with the bytes.
        tl.store(tile_slot, t)
    load_kv(k_bufs, kq_bufs, v_bufs, kv_full, k_desc, v_desc, kq_desc,
            k_off + n0, hk * D, D, PINGPONG)
    for j in range(ahead, total):
        load_step(q_bufs, do_bufs, lse2_bufs, delta_bufs, q_full, do_full,
                  empty, q_desc, do_desc, stats_desc, first + j, j, q_off,
                  hk * group * D, i_lo, tl.maximum(n_iter, 1), stat_off,
                  stat_plane, hk * group, sq_pad, D, STAGES)
    return first + total


@txl.jit
def consume_tile(t, first, tile_i, k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs,
                 lse2_bufs, delta_bufs, ds_bufs, dq_bufs, kv_full, kv_empty,
                 q_full, do_full, empty, dk_ptr, dv_ptr, dq_ptr, dq_desc,
                 seqlen_q, seqlen_k, sq_pad, num_heads, num_kv_heads, group,
                 k_blocks, num_bh, section, window_left, window_right,
                 softcap_scale, cu_q_ptr, cu_k_ptr, qk_scale, softmax_scale,
                 D: tl.constexpr, STAGES: tl.constexpr,
                 CAUSAL: tl.constexpr, ROLE: tl.constexpr,
                 DQ_TMA: tl.constexpr, LOCAL: tl.constexpr,
                 SOFTCAP: tl.constexpr, VARLEN: tl.constexpr,
                 P16_DS: tl.constexpr, DQ_LATE: tl.constexpr,
                 KEEP_DESC: tl.constexpr, FOLD_LSE: tl.constexpr,
                 PINGPONG: tl.constexpr, DQ_FIRST: tl.constexpr):
    """PERSISTENT: consumer ROLE's part of work tile t, the CTA's
    tile_i-th, from ring position first on; returns the position after
    its last iteration."""
    (n0, b, hk, q_off, k_off, stat_off, sq, sk, dq_row0, causal_shift,
     left_shift, i_lo, i_full, i_fend, i_hi, n_iter) = tile_at(
         t, k_blocks, num_bh, section, seqlen_q, seqlen_k, sq_pad,
         num_heads, num_kv_heads, window_left, window_right, cu_q_ptr,
         cu_k_ptr, CAUSAL, LOCAL, VARLEN)
    kv_row_stride = num_kv_heads * D
    return consume(k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs,
                   delta_bufs, ds_bufs, dq_bufs, kv_full, q_full, do_full,
                   empty, dk_ptr + k_off * kv_row_stride,
                   dv_ptr + k_off * kv_row_stride, dq_ptr, dq_desc, dq_row0,
                   hk * group, group, num_heads, n0, sk, causal_shift,
                   left_shift, softcap_scale, i_lo, i_full, i_fend, i_hi,
                   kv_row_stride, hk * D, qk_scale, softmax_scale, first,
                   tile_i, kv_empty, D, STAGES, CAUSAL, ROLE, DQ_TMA, LOCAL,
                   SOFTCAP, P16_DS, DQ_LATE, KEEP_DESC, FOLD_LSE, PINGPONG,
                   DQ_FIRST, True)


@txl.jit
def flash_bwd(q_desc, k_desc, v_desc, kq_desc, do_desc, dq_desc, dk_ptr,
              dv_ptr, stats_desc, stat_plane, dq_ptr, seqlen_q, seqlen_k,
              sq_pad,
              num_heads, num_kv_heads, group, qk_scale, softmax_scale,
              window_left, window_right, softcap_scale, cu_q_ptr, cu_k_ptr,
              D: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr,
              DQ_TMA: tl.constexpr = True, LOCAL: tl.constexpr = False,
              SOFTCAP: tl.constexpr = False, VARLEN: tl.constexpr = False,
              P16_DS: tl.constexpr = True, DQ_LATE: tl.constexpr = False,
              KEEP_DESC: tl.constexpr = True, FOLD_LSE: tl.constexpr = True,
              PINGPONG: tl.constexpr = False,
              DQ_FIRST: tl.constexpr = False,
              PERSISTENT: tl.constexpr = False, num_bh=None, k_blocks=None,
              section=None, DYNAMIC: tl.constexpr = False, sched_ptr=None):
    """Grid: (ceil(seqlen_k / BN), batch * num_kv_heads), one work tile
    (key block, batch * num_kv_heads + kv head) per CTA; PERSISTENT:
    (CTAs,), each CTA walks tiles program_id, program_id + CTAs, ... of
    tile_at's order over k_blocks * num_bh tiles (num_bh = batch *
    num_kv_heads, in sections of `section` pairs; num_bh, k_blocks and
    section are read only then). DYNAMIC (with PERSISTENT): the order is
    dealt on demand: a CTA starts with tile program_id; as its producer
    starts a tile it claims the CTA's next one from the counter
    sched_ptr[0] (zero at launch; tile = atomic_add + CTAs), and hands
    each tile's number to the consumers in sched_ptr[1 + program_id],
    published by that tile's kv_full phase; past the last tile it hands
    them that number with a bare arrival, and they stop. q/do rows are
    [batch * seqlen_q, num_heads * D] (descriptor block [BM, D]); k/v rows
    [batch * seqlen_k, num_kv_heads * D] (blocks [HN, D], kq_desc [HN,
    D/2]); dk/dv are k's shape; lse2/delta [batch * num_heads, sq_pad]
    fp32; dq [batch, sq_pad, num_heads, D] fp32, accumulated into.

    Windows and softcap as in flash_fwd: CAUSAL bounds keys on the right
    (k <= i + seqlen_k - seqlen_q + window_right), LOCAL on the left (k >=
    i + seqlen_k - seqlen_q - window_left); SOFTCAP recomputes tanh(S *
    softcap_scale) and multiplies dS by its derivative.

    VARLEN: packed sequences as in flash_fwd (rows of q/do/dq_acc
    [total_q (+ BM for dq_acc), ...], of k/v/dk/dv [total_k, ...];
    cu_q/cu_k int32 [batch + 1]; seqlen_q/seqlen_k are the totals);
    lse2/delta are [num_heads, sq_pad] as `sequence` lays them out; the
    grid covers the longest sequence's key blocks, and CTAs past their
    sequence's end only store nothing. A query block that runs past its
    sequence adds exact zeros to the next one's dQ rows (LSE2 = +inf
    there makes P, so dS, zero)."""
    dt = q_desc.dtype
    if not PERSISTENT:
        (n0, b, hk, q_off, k_off, stat_off, seqlen_q, seqlen_k, dq_row0,
         causal_shift, left_shift, i_lo, i_full, i_fend, i_hi,
         n_iter) = tile_bounds(tl.program_id(0) * BN, tl.program_id(1),
                               seqlen_q, seqlen_k, sq_pad, num_heads,
                               num_kv_heads, window_left, window_right,
                               cu_q_ptr, cu_k_ptr, CAUSAL, LOCAL, VARLEN)
    DC: tl.constexpr = D // 2
    k_bufs = txl.smem_alloc([HN, D], dtype=dt, num_stages=2)
    v_bufs = txl.smem_alloc([HN, D], dtype=dt, num_stages=2)
    # K again as [HN, DC] quarters for dQ where a column half of K's tile
    # is no whole swizzle chunk (D = 64; at D = 128 nothing reads it: K's
    # buffers stand in, no shared memory).
    if D == 128 or PINGPONG:
        kq_bufs = k_bufs
    else:
        kq_bufs = txl.smem_alloc([HN, DC], dtype=dt, num_stages=4)
    q_bufs = txl.smem_alloc([BM, D], dtype=dt, num_stages=STAGES)
    do_bufs = txl.smem_alloc([BM, D], dtype=dt, num_stages=STAGES)
    lse2_bufs = txl.smem_alloc([BM], dtype=tl.float32, num_stages=STAGES)
    delta_bufs = txl.smem_alloc([BM], dtype=tl.float32, num_stages=STAGES)
    ds_bufs = txl.smem_alloc([HN, BM], dtype=dt, num_stages=4)
    # One fp32 dQ tile per consumer (its column half; PINGPONG: all D
    # columns), for the TMA reduce-add; the atomics need none (dS^T's
    # buffers stand in, unread).
    DQW: tl.constexpr = D if PINGPONG else DC
    if DQ_TMA:
        dq_bufs = txl.smem_alloc([BM, DQW], dtype=tl.float32, num_stages=2)
    else:
        dq_bufs = ds_bufs
    kv_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    q_full = txl.mbar_alloc(1, num_stages=STAGES)
    do_full = txl.mbar_alloc(1, num_stages=STAGES)
    empty = txl.mbar_alloc(2, num_stages=STAGES)  # one per consumer
    if PERSISTENT:
        # K/V are free for the next tile once every consumer thread has
        # read dK and dV back from them (consume's epilogue).
        kv_empty = txl.get_buffer(txl.mbar_alloc(256), 0)
    else:
        kv_empty = kv_full  # (unused)
    kv_row_stride = num_kv_heads * D
    if not PERSISTENT:
        k_row = k_off + n0
    # dQ added an iteration late only by TMA (the atomics take it in the
    # accumulator's layout, which a loop-carried zero tile does not keep).
    LATE: tl.constexpr = DQ_LATE and DQ_TMA and not PINGPONG
    # (With PINGPONG at D = 128 the dQ accumulator next to dK's operands
    # in flight is more than the registers hold: ptxas serializes, C7512.)
    FIRST: tl.constexpr = DQ_FIRST and not LATE and (D == 64 or
                                                     not PINGPONG)
    tl.static_assert(PERSISTENT or not DYNAMIC,
                     "DYNAMIC is an order of the PERSISTENT launch")
    if PERSISTENT:
        num_tiles = k_blocks * num_bh
    if DYNAMIC:
        # This CTA's slot of the tile numbers the producer hands the
        # consumers (sched_ptr[0] is the launch's tile counter).
        tile_slot = sched_ptr + 1 + tl.program_id(0)
    else:
        tile_slot = cu_q_ptr  # (unused)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        if PERSISTENT:
            first = 0
            tile_i = 0
            t = tl.program_id(0)
            while t < num_tiles:
                if DYNAMIC:
                    # Claim the CTA's next tile now, so that the atomic's
                    # latency hides under this tile's loads (as
                    # flash_fwd's DYNAMIC does).
                    nxt = tl.atomic_add(sched_ptr, 1) + tl.num_programs(0)
                else:
                    nxt = t + tl.num_programs(0)
                first = produce_tile(
                    t, first, tile_i, k_bufs, kq_bufs, v_bufs, q_bufs,
                    do_bufs, lse2_bufs, delta_bufs, kv_full, kv_empty,
                    q_full, do_full, empty, k_desc, v_desc, kq_desc, q_desc,
                    do_desc, stats_desc, stat_plane, seqlen_q, seqlen_k,
                    sq_pad, num_heads, num_kv_heads, group, k_blocks,
                    num_bh, section, window_left, window_right, cu_q_ptr,
                    cu_k_ptr, tile_slot, D, STAGES, CAUSAL, LOCAL, VARLEN,
                    PINGPONG, DYNAMIC)
                tile_i += 1
                t = nxt
            if DYNAMIC:
                # No tile left: t (>= num_tiles) goes to the consumers as
                # a tile number would, once they are done with the last
                # tile, with a bare arrival on kv_full (no bytes).
                txl.mbar_wait(kv_empty, (tile_i & 1) ^ 1)
                tl.store(tile_slot, t)
                txl.mbar_arrive(kv_full, pred=txl.tid(0) == 0)
        else:
            produce(k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs,
                    delta_bufs, kv_full, q_full, do_full, empty, k_desc,
                    v_desc, kq_desc, q_desc, do_desc, stats_desc, k_row,
                    hk * D, q_off, hk * group * D, i_lo,
                    tl.maximum(n_iter, 1), n_iter * group, stat_off,
                    stat_plane, hk * group, sq_pad, D, STAGES, PINGPONG)
    for c in tl.static_range(2):
        if txl.is_warpgroup([c + 1]):
            txl.reg_alloc(240)
            if PERSISTENT:
                first = 0
                tile_i = 0
                if DYNAMIC:
                    # Each tile's number comes in tile_slot, published by
                    # the kv_full phase of its K/V (past the last tile: a
                    # number >= num_tiles, with a bare arrival).
                    txl.mbar_wait(kv_full, 0)
                    t = tl.load(tile_slot, volatile=True)
                else:
                    t = tl.program_id(0)
                while t < num_tiles:
                    first = consume_tile(
                        t, first, tile_i, k_bufs, kq_bufs, v_bufs, q_bufs,
                        do_bufs, lse2_bufs, delta_bufs, ds_bufs, dq_bufs,
                        kv_full, kv_empty, q_full, do_full, empty, dk_ptr,
                        dv_ptr, dq_ptr, dq_desc, seqlen_q, seqlen_k, sq_pad,
                        num_heads, num_kv_heads, group, k_blocks, num_bh,
                        section, window_left, window_right, softcap_scale,
                        cu_q_ptr, cu_k_ptr, qk_scale, softmax_scale, D,
                        STAGES, CAUSAL, c, DQ_TMA, LOCAL, SOFTCAP, VARLEN,
                        P16_DS, LATE, KEEP_DESC, FOLD_LSE, PINGPONG, FIRST)
                    tile_i += 1
                    if DYNAMIC:
                        # The next tile's number comes with its K/V's
                        # kv_full phase (consume_tile waits on that phase
                        # again: it passes).
                        txl.mbar_wait(kv_full, tile_i & 1)
                        t = tl.load(tile_slot, volatile=True)
                    else:
                        t += tl.num_programs(0)
            else:
                consume(k_bufs, kq_bufs, v_bufs, q_bufs, do_bufs, lse2_bufs,
                        delta_bufs, ds_bufs, dq_bufs, kv_full, q_full,
                        do_full, empty, dk_ptr + k_off * kv_row_stride,
                        dv_ptr + k_off * kv_row_stride, dq_ptr, dq_desc,
                        dq_row0, hk * group, group, num_heads, n0, seqlen_k,
                        causal_shift, left_shift, softcap_scale, i_lo,
                        i_full, i_fend, i_hi, kv_row_stride, hk * D,
                        qk_scale, softmax_scale, 0, 0, kv_empty, D, STAGES,
                        CAUSAL, c, DQ_TMA, LOCAL, SOFTCAP, P16_DS, LATE,
                        KEEP_DESC, FOLD_LSE, PINGPONG, FIRST)
