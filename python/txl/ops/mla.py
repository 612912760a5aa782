"""DeepSeek multi-head latent attention (MLA) for Hopper, in txl: paged
decoding (mla_decode + mla_combine) and top-k sparse prefill
(mla_sparse_pair, the default, and the older mla_sparse_fwd, at the end of
this file).

    O = softmax(Q K^T * scale [+ causal mask]) V,   V = K[:, :512]

for every batch entry b, against its paged KV cache: K rows are 576 wide
(512 "nope" channels, which are also V, and 64 "rope" channels), stored in
pages of 64 tokens that `block_table[b]` names in order. All query heads
share the one KV head, so with q [b, s_q, h_q, 576] seen as M = s_q * h_q
rows per batch entry, one step of attention is a GEMM of an M x 576 query
tile against a 64 x 576 K page: S = Q K^T is [M, 64], then O += P V is
[M, 512]. The kernel takes the M rows 64 at a time (one CTA row tile) and
reads each page once per tile with TMA (h_q = 128, s_q = 1: two tiles,
whose CTAs walk the same pages at the same time, so the second read is
an L2 hit; CLUSTER=2 makes them one cluster that loads each page once and
multicasts it).

The schedule (one CTA = 64 query rows x one run of pages; three
warpgroups, num_warps=4, num_warpgroups=3):

- warpgroup 0, the producer, gives up registers and issues TMA only: the
  query tile of each batch entry it visits (as three boxes: channels
  0-255, 256-511 and the rope 512-575), then every page, looked up in
  the block table, into a STAGES-deep ring. A stage holds a step of BN
  tokens (a page, or half of one) in the same three parts; it is one
  `full` barrier (all its bytes) and one `empty` barrier (one arrival per
  consumer). Shared memory: the 72 KB query tile, 144 KB of stages (two
  pages, or four half pages), P and alpha: 226-227 KB of the 227 KB.
- warpgroup 1 computes S = Q K^T (three chained wgmmas, 576 deep), masks
  the ragged last page (and the causal diagonal), and runs the online
  softmax in registers (exp2 domain, as flash_attn.py). It publishes P
  (16-bit, to shared memory) and the rescale factor alpha of this page,
  then accumulates the left half of the output, O[:, :256] += P V[:, :256],
  with P straight from registers.
- warpgroup 2 owns the right half of the output: it waits for P and
  alpha, rescales its O[:, 256:] and accumulates P V[:, 256:] with P
  from shared memory. An accumulator of 64 x 256 fp32 is 128 registers a
  thread; the whole 64 x 512 would not fit one warpgroup.

The schedules (SCHEDULES in _mla.py; H100, b=132, s_k=32768, h_q=128,
bench/bench_mla.py at commit 077d377, before the softmax moved back to
S's own layout, which cut its work fourfold): warpgroup 1 one wgmma group at a time over whole
pages ("page", OVERLAP=0, the default: 2.3-2.4 ms, 1.4x the KV-read
floor); the next page's scores issued right behind P V ("page-early",
OVERLAP=2: no faster); FA3's overlap, the scores of step j under P V of
step j-1 (OVERLAP=1), which holds two stages at once and so only fits
with half-page steps, whose doubled per-step overhead loses more than the
overlap gains (3.3 ms). What bounds the page schedule is warpgroup 1's
serial chain per page: 36 wgmmas of S, the softmax, the P hand-over, then
P V; the tensor core idles during the softmax and the hand-over, and two
stages are all the query tile leaves room for.

Where the time goes (session 14, bench_mla.py --ab parts, one process,
the page schedule with RELOAD_Q; the variants leave one part of each
page's work out, mla_decode's ABLATE): 2.19 ms in all; without the
softmax 2.21 (so it is not on the critical path), without P V 1.84,
without Q K^T 1.73, with no work at all (each page waited for and freed)
1.65 = the KV-read floor. The ring of two stages streams at the floor
when nothing holds a stage; holding one for a page's wgmmas (~1.2 us of
tensor work) leaves a single page in flight, and a load from DRAM under
this traffic takes longer than a page's work. So the decode is bound by
the wgmmas' hold on the stages, not by the loads themselves nor the
softmax: faster wgmmas (Q K^T at N = 64 reads A and B from shared
memory, 4 KB per 64x64x16 step) or a third stage (which the 72 KB query
tile leaves no room for) would help; an L2 bulk prefetch of the pages
ahead (PREFETCH) did not (2.73 ms: the prefetches seem to occupy the TMA
unit ahead of the loads).

The two consumers hand P over with two named barriers (256 threads):
`P_READY` (warpgroup 1 arrives after writing P and alpha, warpgroup 2
waits) and `P_FREE` (warpgroup 2 arrives once its wgmma has read P,
warpgroup 1 waits before writing the next one; warpgroup 2 arrives once at
the start, so the first P needs no wait, and warpgroup 1 waits once at the
end, so both end balanced). The end of a batch entry is one more hand-over
of the same kind that carries 1/l instead of alpha.

Split-KV: the batch's pages are spread over all SMs by the host scheduler
(get_mla_metadata in __init__.py): grid (M tiles, parts), and part p walks
batch entries begin..end, from page begin_block of the first to page
end_block (exclusive) of the last. An entry that one part covers whole is
written straight to out and lse; the pieces of an entry that several
parts share write their normalized O and their LSE to fp32 scratch rows
(one per piece: num_splits holds each entry's first row), and
`mla_combine` merges them: O = sum_i exp(lse_i - lse) O_i, with lse the
log-sum-exp of the lse_i. Both roles walk the same pieces with running
counters (pages for the ring, entries for the query tile), so they never
drift apart.

The ragged last page: its slots past seqlen hold whatever the cache pool
held (NaN included). Their scores are masked to -inf, but P = 0 times a
NaN of V is still NaN, so before the page's P V each consumer zeroes the
stale rows of its V half in shared memory (zero_tail: in place, in a
16-bytes-a-thread layout, then fence.proxy.async and a named barrier of
its own, 10 or 11).

Causal (multi-token prediction, s_q > 1): row r of the tile is query token
s = r // h_q of the s_q new tokens, which sees the keys k <= seqlen - s_q +
s. Pages that end before the first such limit take the unmasked path.
A row that sees no key gets O = 0 and LSE = +inf (FlashMLA's convention).
"""
import triton.language as tl
import txl

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453
PAGE = 64     # tokens per KV-cache page
P_READY = 8   # named barrier: warpgroup 1 -> 2, "P and alpha are written"
P_FREE = 9    # named barrier: warpgroup 2 -> 1, "P has been read"
TAIL_BAR = 10  # named barrier of warpgroup 1 alone (+1: warpgroup 2 alone)
ALPHA_READY = 12  # named barrier: warpgroup 1 -> 2, "alpha is written"
                  # (EARLY_ALPHA: alpha goes ahead of P)
# 16 bytes of a row per thread: how zero_tail writes a 64-column chunk.
TAIL_LAYOUT = txl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
# The wgmma accumulator of a 64 x 256 output half (one warpgroup).
ACC_LAYOUT = txl.NVMMADistributedLayout(3, [4, 1], [16, 256, 16])
# One value per row of it (the four lanes holding a row hold copies): the
# softmax's row statistics, in the same registers as S's rows.
ROW_LAYOUT = txl.SliceLayout(1, ACC_LAYOUT)


@txl.jit
def piece_bounds(meta_ptr, seqlens_ptr, part, bi, BN: tl.constexpr):
    """Steps [lo, hi) of batch entry bi that part `part` covers (a step is
    BN tokens: a page, or with BN=32 half of one; steps wholly past the
    end are skipped), the entry's seqlen, and this piece's index among the
    entry's pieces."""
    R: tl.constexpr = PAGE // BN
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    seqlen = tl.load(seqlens_ptr + bi)
    lo = tl.where(bi == begin_b, tl.load(meta_ptr + part * 8 + 1), 0) * R
    hi = tl.where(bi == end_b, tl.load(meta_ptr + part * 8 + 3) * R,
                  tl.cdiv(seqlen, BN))
    hi = tl.minimum(hi, tl.cdiv(seqlen, BN))
    split = tl.where(bi == begin_b, tl.load(meta_ptr + part * 8 + 4), 0)
    return lo, hi, seqlen, split


@txl.jit
def load_page(k_lo, k_hi, k_rope, bar, k_desc, kr_desc, krow,
              DH: tl.constexpr, CLUSTER: tl.constexpr):
    """One page (rows krow.. of the cache) into a stage. With CLUSTER=2 the
    two CTAs of a cluster (two query tiles of the same pages) split it, CTA
    0 loading channels 0-255 and CTA 1 the rest, each multicast to both:
    every CTA still receives the whole page (its barrier counts all of
    it), and L2 sends each page out once per cluster."""
    if CLUSTER == 1:
        txl.tma_load(k_lo, k_desc, [krow, 0], bar)
        txl.tma_load(k_hi, k_desc, [krow, DH], bar)
        txl.tma_load(k_rope, kr_desc, [krow, 2 * DH], bar)
    elif txl.cta_rank() == 0:
        txl.tma_load(k_lo, k_desc, [krow, 0], bar, multicast=0b11)
    else:
        txl.tma_load(k_hi, k_desc, [krow, DH], bar, multicast=0b11)
        txl.tma_load(k_rope, kr_desc, [krow, 2 * DH], bar, multicast=0b11)


@txl.jit
def prefetch_pages(k_ptr, row, first, end, issue, ELEM: tl.constexpr):
    """Pages first.. (< end) of a block-table row into L2, whole (64
    contiguous rows of 576 elements each: one bulk prefetch a page, no
    shared memory, nothing to wait for), from the threads where `issue`
    holds."""
    for f in range(first, end):
        page = tl.load(row + f).to(tl.int64)
        txl.prefetch_l2(k_ptr + page * (PAGE * 576), PAGE * 576 * ELEM,
                        pred=issue)


@txl.jit
def produce(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty, k_full,
            k_empty, q_desc, qr_desc, k_desc, kr_desc, meta_ptr, bt_ptr,
            bt_stride, seqlens_ptr, part, M, m0,
            BN: tl.constexpr, DH: tl.constexpr, STAGES: tl.constexpr,
            CLUSTER: tl.constexpr, PREFETCH: tl.constexpr = 0, k_ptr=None):
    """Every piece of this part: the query tile, then its pages. With
    PREFETCH > 0 each page is also asked of L2 PREFETCH pages before its
    load (through k_ptr, the cache's pages as contiguous bytes): the ring
    holds two pages, so a load is issued only about a page before its
    use, which may be less than a load from DRAM takes under this
    traffic."""
    ELEM: tl.constexpr = q_desc.dtype.primitive_bitwidth // 8
    Q_TILE: tl.constexpr = 64 * (2 * DH + 64) * ELEM  # 64 rows, 576 wide
    TILE: tl.constexpr = BN * (2 * DH + 64) * ELEM  # one step of K
    R: tl.constexpr = PAGE // BN
    issue = txl.tid(0) % 128 == 0
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    it = 0
    t = 0
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, BN)
        txl.mbar_wait(q_empty, (t & 1) ^ 1)
        txl.mbar_expect(q_full, Q_TILE)
        row = bi * M + m0
        txl.tma_load(q_lo, q_desc, [row, 0], q_full)
        txl.tma_load(q_hi, q_desc, [row, DH], q_full)
        txl.tma_load(q_rope, qr_desc, [row, 2 * DH], q_full)
        t += 1
        row_pages = bt_ptr + bi * bt_stride
        n_pages = tl.cdiv(hi, R)
        if PREFETCH > 0:
            prefetch_pages(k_ptr, row_pages, lo // R,
                           tl.minimum(lo // R + PREFETCH, n_pages), issue,
                           ELEM)
        for j in range(lo, hi):
            page = tl.load(row_pages + j // R)
            if PREFETCH > 0:
                if j % R == 0:
                    ahead = j // R + PREFETCH
                    prefetch_pages(k_ptr, row_pages, ahead,
                                   tl.minimum(ahead + 1, n_pages), issue,
                                   ELEM)
            s = it % STAGES
            txl.mbar_wait(txl.get_buffer(k_empty, s),
                          ((it // STAGES) & 1) ^ 1)
            bar = txl.get_buffer(k_full, s)
            txl.mbar_expect(bar, TILE)
            load_page(txl.get_buffer(k_lo, s), txl.get_buffer(k_hi, s),
                      txl.get_buffer(k_rope, s), bar, k_desc, kr_desc,
                      page * PAGE + (j % R) * BN, DH, CLUSTER)
            it += 1


@txl.jit
def scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full, it,
           STAGES: tl.constexpr):
    """S = Q K^T over all 576 channels (three chained wgmmas), issued once
    the page of step `it` has landed."""
    s = it % STAGES
    txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
    S = tl.dot(q_lo, txl.get_buffer(k_lo, s).T)
    S = tl.dot(q_hi, txl.get_buffer(k_hi, s).T, S)
    return tl.dot(q_rope, txl.get_buffer(k_rope, s).T, S)


@txl.jit
def page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full, it,
                STAGES: tl.constexpr, RELOAD_Q: tl.constexpr):
    """scores() of the decode, the query tile given as its (one-stage)
    allocations. RELOAD_Q indexes them with a zero that changes with `it`
    (loop_zero), so Q's 36 wgmma descriptors are made in the loop as K's
    are, instead of being hoisted out of it and held: held, they are 36
    registers next to O's 128 and S's 32, and ptxas spills them (132
    bytes; the refills sit between the wgmmas of S)."""
    z = 0
    if RELOAD_Q:
        z = loop_zero(it)
    return scores(txl.get_buffer(q_lo, z), txl.get_buffer(q_hi, z),
                  txl.get_buffer(q_rope, z), k_lo, k_hi, k_rope, k_full, it,
                  STAGES)


@txl.jit
def mask_scores(S, j, limit, BN: tl.constexpr):
    """-inf where key j*BN+c is past the row's last visible key."""
    cols = j * BN + tl.arange(0, BN)
    return tl.where(cols[None, :] <= limit[:, None], S, float("-inf"))


@txl.jit
def softmax_step(S, m_i, l_i, qk_scale):
    """The online-softmax update of one page (see flash_attn.py)."""
    m_new = tl.maximum(m_i, txl.warp_max(S, 1) * qk_scale)
    m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
    p = tl.extra.cuda.libdevice.exp2(tl.fma(S, qk_scale, -m_use[:, None]))
    alpha = tl.extra.cuda.libdevice.exp2(m_i - m_use)
    l_new = l_i * alpha + txl.warp_sum(p, 1)
    return p, alpha, m_new, l_new


@txl.jit
def page_softmax(S, j, first_masked, limit, m_i, l_i, qk_scale,
                 BN: tl.constexpr):
    """Page j's scores, masked where the page holds keys some row must not
    see (the ragged end, the causal diagonal), into the online softmax."""
    if j >= first_masked:
        S = mask_scores(S, j, limit, BN)
    return softmax_step(S, m_i, l_i, qk_scale)


@txl.jit
def pv_left(acc, p, alpha, k_lo, it, HM: tl.constexpr,
            STAGES: tl.constexpr):
    """O[:, :256] = O * alpha + P V[:, :256], P from registers (issued, not
    waited for)."""
    alpha = txl.relayout(alpha, [HM], ROW_LAYOUT)
    return tl.dot(p, txl.get_buffer(k_lo, it % STAGES), acc * alpha[:, None])


@txl.jit
def zero_tail(buf, j, seqlen, BN: tl.constexpr, DH: tl.constexpr,
              BAR: tl.constexpr):
    """On the ragged last step of an entry, rows past seqlen of this V half
    (`buf`, one stage) to zero: those cache slots hold whatever the pool
    held, NaN included, and a masked score's P = 0 times NaN is still NaN
    in P V. The calling warpgroup then fences its writes for wgmma and
    synchronizes on named barrier BAR before anyone issues the P V."""
    if (j + 1) * BN > seqlen:
        stale = txl.relayout((tl.arange(0, BN)[:, None] +
                              tl.zeros([BN, 64], tl.int32)) >= seqlen - j * BN,
                             [BN, 64], TAIL_LAYOUT)
        for c in tl.static_range(DH // 64):
            # Read, select and write back in one layout (16 bytes of a row
            # a thread): no data moves between threads.
            chunk = txl.smem_slice(buf, c * 64, 64, 1)
            v = txl.frag_smem_load(chunk, [BN, 64], TAIL_LAYOUT)
            txl.frag_smem_store(chunk, tl.where(stale, 0.0, v).to(v.dtype),
                                TAIL_LAYOUT)
        txl.fence_proxy_async()
        txl.bar_wait(BAR, 128)


@txl.jit
def pv_left_tail(acc, p, alpha, k_lo, it, j, seqlen, HM: tl.constexpr,
                 BN: tl.constexpr, DH: tl.constexpr, STAGES: tl.constexpr):
    """pv_left for step j of an entry, its V rows past seqlen zeroed."""
    zero_tail(txl.get_buffer(k_lo, it % STAGES), j, seqlen, BN, DH, TAIL_BAR)
    return pv_left(acc, p, alpha, k_lo, it, HM, STAGES)


@txl.jit
def release(bars, it, leader, STAGES: tl.constexpr,
            CLUSTER: tl.constexpr = 1):
    """Frees the stage of step `it`: in this CTA, and with CLUSTER=2 in the
    peer too (whose producer multicasts into our copy of the stage)."""
    bar = txl.get_buffer(bars, it % STAGES)
    txl.mbar_arrive(bar, pred=leader)
    if CLUSTER == 2:
        txl.mbar_arrive(bar, pred=leader, cta_id=txl.cta_rank() ^ 1)


@txl.jit
def publish(p_buf, scale_buf, p, scale, LEAN: tl.constexpr = False):
    """Warpgroup 1 -> 2: P and alpha, once the previous P has been read
    (the fence makes the threads' writes visible to wgmma's async
    proxy). LEAN: the stores without smem_store's own warpgroup barriers
    and fences (sync=False): nothing in warpgroup 1 reads either buffer,
    and P_FREE / P_READY order them against warpgroup 2."""
    txl.bar_wait(P_FREE, 256)
    txl.smem_store(p_buf, p, sync=not LEAN)
    txl.smem_store(scale_buf, scale, sync=not LEAN)
    txl.fence_proxy_async()
    txl.bar_arrive(P_READY, 256)


@txl.jit
def publish_scale(scale_buf, scale, LEAN: tl.constexpr = False):
    """Warpgroup 1 -> 2: a per-row factor alone (1/l at the end)."""
    txl.bar_wait(P_FREE, 256)
    txl.smem_store(scale_buf, scale, sync=not LEAN)
    txl.bar_arrive(P_READY, 256)


@txl.jit
def store_rows(o_ptr, lse_ptr, acc, inv_l, lse, row0, m0, M, h_q, s_q,
               lse_base, col0, DH: tl.constexpr, HM: tl.constexpr,
               WITH_LSE: tl.constexpr):
    """This consumer's O columns [col0, col0 + DH) of rows m0.. of a piece
    (rows row0 + r of o_ptr, each 512 wide), and with WITH_LSE the rows'
    LSE at lse_base + h * s_q + s (r = s * h_q + h)."""
    rows = m0 + tl.arange(0, HM)
    live = rows < M
    # Stored straight from the accumulator's registers (pinning its layout
    # keeps the store from moving 64 KB through shared scratch, which this
    # kernel has no room for).
    inv_l = txl.relayout(inv_l, [HM], ROW_LAYOUT)
    out = txl.relayout((acc * inv_l[:, None]).to(o_ptr.dtype.element_ty),
                       [HM, DH], ACC_LAYOUT)
    cols = tl.arange(0, DH)
    offs = (row0 + rows)[:, None] * (2 * DH) + col0 + cols[None, :]
    tl.store(o_ptr + offs, out, mask=live[:, None])
    if WITH_LSE:
        h = rows % h_q
        s = rows // h_q
        tl.store(lse_ptr + lse_base + h * s_q + s, lse, mask=live)


@txl.jit
def early_alpha_step(q_lo, q_hi, q_rope, k_lo, k_full, k_hi, k_rope,
                     k_empty, p_buf, scale_buf, acc, m_i, l_i, j,
                     first_masked, limit, qk_scale, it, leader, seqlen,
                     BN: tl.constexpr, DH: tl.constexpr, HM: tl.constexpr,
                     STAGES: tl.constexpr, CLUSTER: tl.constexpr,
                     RELOAD_Q: tl.constexpr, LEAN: tl.constexpr):
    """Warpgroup 1's page with alpha sent ahead of P (EARLY_ALPHA): the
    row maxima give alpha before any exponential, so alpha goes to
    warpgroup 2 (ALPHA_READY) first, and both warpgroups rescale their
    O halves while warpgroup 1 computes P (its rescale interleaves with
    the exponentials; warpgroup 2's runs before P is ready) instead of
    between P and the P V wgmmas, where the tensor core waits for them."""
    dt = p_buf.dtype
    S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full, it,
                    STAGES, RELOAD_Q)
    txl.dot_wait(0)
    if j >= first_masked:
        S = mask_scores(S, j, limit, BN)
    m_new = tl.maximum(m_i, txl.warp_max(S, 1) * qk_scale)
    m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = tl.extra.cuda.libdevice.exp2(m_i - m_use)
    txl.bar_wait(P_FREE, 256)
    txl.smem_store(scale_buf, alpha, sync=not LEAN)
    txl.bar_arrive(ALPHA_READY, 256)
    # (Behind a branch that is always taken, a page existing: in one basic
    # block ptxas schedules the exponentials, which nothing orders after
    # the arrival, ahead of it, and alpha would leave no earlier than P.
    # The rescale shares their block, to fill the exponentials' issue
    # gaps.)
    p = S
    if seqlen > 0:
        p = tl.extra.cuda.libdevice.exp2(tl.fma(S, qk_scale,
                                                -m_use[:, None]))
        acc = acc * txl.relayout(alpha, [HM], ROW_LAYOUT)[:, None]
    l_i = l_i * alpha + txl.warp_sum(p, 1)
    p = p.to(dt)
    txl.smem_store(p_buf, p, sync=not LEAN)
    txl.fence_proxy_async()
    txl.bar_arrive(P_READY, 256)
    zero_tail(txl.get_buffer(k_lo, it % STAGES), j, seqlen, BN, DH, TAIL_BAR)
    acc = tl.dot(p, txl.get_buffer(k_lo, it % STAGES), acc)
    txl.dot_wait(0)
    release(k_empty, it, leader, STAGES, CLUSTER)
    return acc, m_new, l_i


# Ablations of the decode (bench/bench_mla.py --ab parts; the results are
# wrong): each leaves out one part of a page's work, keeping the rest of
# the schedule and every barrier, to time what that part costs.
ABLATIONS = {"none": 0, "no-softmax": 1, "no-pv": 2, "no-qk": 3,
             "loads-only": 4}


@txl.jit
def ablated_step_s(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full, k_empty,
                   p_buf, scale_buf, acc, m_i, l_i, j, first_masked, limit,
                   qk_scale, it, leader, seqlen, BN: tl.constexpr,
                   DH: tl.constexpr, HM: tl.constexpr, STAGES: tl.constexpr,
                   CLUSTER: tl.constexpr, ABLATE: tl.constexpr,
                   RELOAD_Q: tl.constexpr, LEAN: tl.constexpr = False):
    """Warpgroup 1's step of the page schedule with part ABLATE left out
    (ABLATIONS): 1 P = S, alpha = 1 (no softmax); 2 no P V; 3 no Q K^T (S
    = 0, the page still waited for); 4 the page waited for and freed,
    nothing else (no hand-over either: consume_o skips it alike)."""
    dt = p_buf.dtype
    if ABLATE == 4:
        txl.mbar_wait(txl.get_buffer(k_full, it % STAGES),
                      (it // STAGES) & 1)
    else:
        if ABLATE == 3:
            txl.mbar_wait(txl.get_buffer(k_full, it % STAGES),
                          (it // STAGES) & 1)
            S = tl.zeros([HM, BN], dtype=tl.float32)
        else:
            S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full,
                            it, STAGES, RELOAD_Q)
            txl.dot_wait(0)
        if ABLATE == 1:
            p = S
            alpha = l_i * 0.0 + 1.0
        else:
            p, alpha, m_i, l_i = page_softmax(S, j, first_masked, limit,
                                              m_i, l_i, qk_scale, BN)
        p = p.to(dt)
        publish(p_buf, scale_buf, p, alpha, LEAN)
        if ABLATE != 2:
            acc = pv_left_tail(acc, p, alpha, k_lo, it, j, seqlen, HM, BN,
                               DH, STAGES)
            txl.dot_wait(0)
    release(k_empty, it, leader, STAGES, CLUSTER)
    return acc, m_i, l_i


@txl.jit
def consume_s(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
              k_full, k_empty, p_buf, scale_buf, o_ptr, lse_ptr, oacc_ptr,
              lacc_ptr, meta_ptr, bt_ptr, seqlens_ptr, splits_ptr, part, M,
              m0, h_q, s_q, qk_scale, BN: tl.constexpr, DH: tl.constexpr,
              HM: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr,
              CLUSTER: tl.constexpr, OVERLAP: tl.constexpr,
              ABLATE: tl.constexpr = 0, RELOAD_Q: tl.constexpr = False,
              LEAN: tl.constexpr = False, EARLY_ALPHA: tl.constexpr = False):
    """Warpgroup 1: scores, softmax, P, and the left half of O (q_lo,
    q_hi, q_rope: the query tile's one-stage allocations)."""
    dt = q_lo.dtype
    # The rows of S (a 64 x BN accumulator): the running max and sum and
    # the causal limits live there, so the softmax never moves S. (The
    # rows of O's 64 x 256 accumulator map alike, but a 64 x BN tensor in
    # that layout would be held four times over.)
    s_rows = txl.SliceLayout(1, txl.NVMMADistributedLayout(3, [4, 1],
                                                           [16, BN, 16]))
    leader = txl.tid(0) % 128 == 0
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    rows = m0 + tl.arange(0, HM)
    it = 0
    t = 0
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, BN)
        if CAUSAL:
            limit = seqlen - s_q + rows // h_q
        else:
            limit = seqlen - 1 + rows * 0
        limit = txl.relayout(limit, [HM], s_rows)
        first_masked = (seqlen - s_q + 1) // BN if CAUSAL else seqlen // BN
        txl.mbar_wait(q_full, t & 1)
        m_i = txl.relayout(tl.full([HM], float("-inf"), tl.float32), [HM],
                           s_rows)
        l_i = txl.relayout(tl.zeros([HM], dtype=tl.float32), [HM],
                           s_rows)
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        if OVERLAP == 2 and hi > lo:
            # S_{j+1} is issued right behind O += P_j V_j: the tensor core
            # goes from one to the other without waiting for this
            # warpgroup (the softmax still runs alone, but no stage is
            # held longer than in the plain schedule).
            S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full,
                            it, STAGES, RELOAD_Q)
            txl.dot_wait(0)
            for j in range(lo, hi - 1):
                p, alpha, m_i, l_i = page_softmax(S, j, first_masked, limit,
                                                  m_i, l_i, qk_scale, BN)
                p = p.to(dt)
                publish(p_buf, scale_buf, p, alpha, LEAN)
                acc = pv_left_tail(acc, p, alpha, k_lo, it, j, seqlen, HM,
                                   BN, DH, STAGES)
                S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope,
                                k_full, it + 1, STAGES, RELOAD_Q)
                txl.dot_wait(1)
                release(k_empty, it, leader, STAGES, CLUSTER)
                txl.dot_wait(0)
                it += 1
            p, alpha, m_i, l_i = page_softmax(S, hi - 1, first_masked,
                                              limit, m_i, l_i, qk_scale, BN)
            p = p.to(dt)
            publish(p_buf, scale_buf, p, alpha, LEAN)
            acc = pv_left_tail(acc, p, alpha, k_lo, it, hi - 1, seqlen, HM,
                               BN, DH, STAGES)
            txl.dot_wait(0)
            release(k_empty, it, leader, STAGES, CLUSTER)
            it += 1
        if OVERLAP == 1 and hi > lo:
            # The first step alone: nothing to overlap its softmax with.
            S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full,
                            it, STAGES, RELOAD_Q)
            txl.dot_wait(0)
            p, alpha, m_i, l_i = page_softmax(S, lo, first_masked, limit,
                                              m_i, l_i, qk_scale, BN)
            p = p.to(dt)
            publish(p_buf, scale_buf, p, alpha, LEAN)
            for j in range(lo + 1, hi):
                # S_j is issued, then O += P_{j-1} V_{j-1}; dot_wait(1)
                # retires S_j, and page j's softmax runs on the CUDA cores
                # while the tensor core still works on P_{j-1} V_{j-1}.
                S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope,
                                k_full, it + 1, STAGES, RELOAD_Q)
                acc = pv_left_tail(acc, p, alpha, k_lo, it, j - 1, seqlen,
                                   HM, BN, DH, STAGES)
                txl.dot_wait(1)
                p_next, alpha, m_i, l_i = page_softmax(
                    S, j, first_masked, limit, m_i, l_i, qk_scale, BN)
                txl.dot_wait(0)
                release(k_empty, it, leader, STAGES, CLUSTER)
                p = p_next.to(dt)
                publish(p_buf, scale_buf, p, alpha, LEAN)
                it += 1
            acc = pv_left_tail(acc, p, alpha, k_lo, it, hi - 1, seqlen, HM,
                               BN, DH, STAGES)
            txl.dot_wait(0)
            release(k_empty, it, leader, STAGES, CLUSTER)
            it += 1
        if OVERLAP == 0 and ABLATE == 0 and EARLY_ALPHA:
            for j in range(lo, hi):
                acc, m_i, l_i = early_alpha_step(
                    q_lo, q_hi, q_rope, k_lo, k_full, k_hi, k_rope, k_empty,
                    p_buf, scale_buf, acc, m_i, l_i, j, first_masked, limit,
                    qk_scale, it, leader, seqlen, BN, DH, HM, STAGES,
                    CLUSTER, RELOAD_Q, LEAN)
                it += 1
        if OVERLAP == 0 and ABLATE == 0 and not EARLY_ALPHA:
            for j in range(lo, hi):
                S = page_scores(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope,
                                k_full, it, STAGES, RELOAD_Q)
                txl.dot_wait(0)
                p, alpha, m_i, l_i = page_softmax(S, j, first_masked, limit,
                                                  m_i, l_i, qk_scale, BN)
                p = p.to(dt)
                publish(p_buf, scale_buf, p, alpha, LEAN)
                acc = pv_left_tail(acc, p, alpha, k_lo, it, j, seqlen, HM,
                                   BN, DH, STAGES)
                txl.dot_wait(0)
                release(k_empty, it, leader, STAGES, CLUSTER)
                it += 1
        if OVERLAP == 0 and ABLATE != 0:
            for j in range(lo, hi):
                acc, m_i, l_i = ablated_step_s(
                    q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, k_full, k_empty,
                    p_buf, scale_buf, acc, m_i, l_i, j, first_masked, limit,
                    qk_scale, it, leader, seqlen, BN, DH, HM, STAGES,
                    CLUSTER, ABLATE, RELOAD_Q, LEAN)
                it += 1
        txl.mbar_arrive(q_empty, pred=leader)
        t += 1
        seen = l_i > 0.0
        inv_l = tl.where(seen, tl.fdiv(1.0, l_i), 0.0)
        publish_scale(scale_buf, inv_l, LEAN)
        lse = (m_i + tl.log2(l_i)) * LN2
        s0 = tl.load(splits_ptr + bi)
        n_split = tl.load(splits_ptr + bi + 1) - s0
        if n_split == 1:
            lse = tl.where(seen, lse, float("inf"))
            store_rows(o_ptr, lse_ptr, acc, inv_l, lse, bi * M, m0, M, h_q,
                       s_q, bi * M, 0, DH, HM, True)
        else:
            lse = tl.where(seen, lse, float("-inf"))
            slot = s0 + split
            store_rows(oacc_ptr, lacc_ptr, acc, inv_l, lse, slot * M, m0, M,
                       1, M, slot * M, 0, DH, HM, True)


@txl.jit
def consume_o(k_hi, k_full, k_empty, p_buf, scale_buf, o_ptr, lse_ptr,
              oacc_ptr, lacc_ptr, meta_ptr, bt_ptr, seqlens_ptr, splits_ptr,
              part, M, m0, h_q, s_q, BN: tl.constexpr, DH: tl.constexpr,
              HM: tl.constexpr, STAGES: tl.constexpr, CLUSTER: tl.constexpr,
              ABLATE: tl.constexpr = 0, EARLY_ALPHA: tl.constexpr = False):
    """Warpgroup 2: the right half of O, from warpgroup 1's P."""
    leader = txl.tid(0) % 128 == 0
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    it = 0
    txl.bar_arrive(P_FREE, 256)  # the P buffer starts free
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, BN)
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        for j in range(lo, hi):
            s = it % STAGES
            if ABLATE == 4:  # (see ablated_step_s)
                txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
            elif EARLY_ALPHA:  # (see early_alpha_step)
                txl.bar_wait(ALPHA_READY, 256)
                alpha = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
                # (ptxas may still sink this rescale below the wait for
                # P: an always-taken branch around it, as in warpgroup 1,
                # costs a 128 KB layout conversion here.)
                acc = acc * alpha[:, None]
                txl.bar_wait(P_READY, 256)
                txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
                zero_tail(txl.get_buffer(k_hi, s), j, seqlen, BN, DH,
                          TAIL_BAR + 1)
                acc = tl.dot(p_buf, txl.get_buffer(k_hi, s), acc)
                txl.dot_wait(0)
                txl.bar_arrive(P_FREE, 256)
            else:
                txl.bar_wait(P_READY, 256)
                txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
                # (Warpgroup 1's scores of this step have retired: P is
                # out.)
                if ABLATE != 2:
                    zero_tail(txl.get_buffer(k_hi, s), j, seqlen, BN, DH,
                              TAIL_BAR + 1)
                    alpha = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
                    acc = tl.dot(p_buf, txl.get_buffer(k_hi, s),
                                 acc * alpha[:, None])
                    txl.dot_wait(0)
                txl.bar_arrive(P_FREE, 256)
            release(k_empty, it, leader, STAGES, CLUSTER)
            it += 1
        txl.bar_wait(P_READY, 256)
        inv_l = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
        txl.bar_arrive(P_FREE, 256)
        s0 = tl.load(splits_ptr + bi)
        n_split = tl.load(splits_ptr + bi + 1) - s0
        if n_split == 1:
            store_rows(o_ptr, lse_ptr, acc, inv_l, inv_l, bi * M, m0, M, h_q,
                       s_q, 0, DH, DH, HM, False)
        else:
            slot = s0 + split
            store_rows(oacc_ptr, lacc_ptr, acc, inv_l, inv_l, slot * M, m0,
                       M, 1, M, 0, DH, DH, HM, False)


@txl.jit
def mla_decode(q_desc, qr_desc, k_desc, kr_desc, o_ptr, lse_ptr, oacc_ptr,
               lacc_ptr, meta_ptr, bt_ptr, bt_stride, seqlens_ptr,
               splits_ptr, M, h_q, s_q, qk_scale, STAGES: tl.constexpr,
               CAUSAL: tl.constexpr, CLUSTER: tl.constexpr = 1,
               BN: tl.constexpr = 64, OVERLAP: tl.constexpr = 0,
               ABLATE: tl.constexpr = 0, RELOAD_Q: tl.constexpr = True,
               PREFETCH: tl.constexpr = 0, k_ptr=None,
               LEAN: tl.constexpr = False, EARLY_ALPHA: tl.constexpr = False):
    """Grid: (cdiv(M, 64), parts). q rows are [batch * M, 576] (M = s_q *
    h_q, row r of an entry = token r // h_q, head r % h_q); the cache is
    [pages * 64, 576]; out [batch * M, 512], lse [batch, h_q, s_q]; the
    scratch oacc [pieces * M, 512] and lacc [pieces * M] are fp32.
    ABLATE (ABLATIONS, timing only: wrong results) leaves a part of each
    page's work out; RELOAD_Q: see page_scores; PREFETCH and k_ptr (the
    cache's first element, its pages contiguous): see produce; LEAN: see
    publish; EARLY_ALPHA (page schedule): see early_alpha_step."""
    HM: tl.constexpr = 64   # query rows per CTA
    DH: tl.constexpr = 256  # half of V's 512 channels
    EARLY: tl.constexpr = EARLY_ALPHA and OVERLAP == 0 and ABLATE == 0
    dt = q_desc.dtype
    tile = tl.program_id(0) * CLUSTER
    if CLUSTER == 2:
        tile += txl.cta_rank()
    m0 = tile * HM
    part = tl.program_id(1)
    q_lo = txl.smem_alloc([HM, DH], dtype=dt)
    q_hi = txl.smem_alloc([HM, DH], dtype=dt)
    q_rope = txl.smem_alloc([HM, 64], dtype=dt)
    k_lo = txl.smem_alloc([BN, DH], dtype=dt, num_stages=STAGES)
    k_hi = txl.smem_alloc([BN, DH], dtype=dt, num_stages=STAGES)
    k_rope = txl.smem_alloc([BN, 64], dtype=dt, num_stages=STAGES)
    p_buf = txl.get_buffer(txl.smem_alloc([HM, BN], dtype=dt), 0)
    scale_buf = txl.get_buffer(txl.smem_alloc([HM], dtype=tl.float32), 0)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    q_empty = txl.get_buffer(txl.mbar_alloc(1), 0)
    k_full = txl.mbar_alloc(1, num_stages=STAGES)
    # One arrival per consumer warpgroup of each CTA the stage is filled
    # by (both CTAs of a cluster).
    k_empty = txl.mbar_alloc(2 * CLUSTER, num_stages=STAGES)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        produce(txl.get_buffer(q_lo, 0), txl.get_buffer(q_hi, 0),
                txl.get_buffer(q_rope, 0), k_lo, k_hi, k_rope, q_full,
                q_empty, k_full, k_empty, q_desc, qr_desc, k_desc, kr_desc,
                meta_ptr, bt_ptr, bt_stride, seqlens_ptr, part, M, m0, BN,
                DH, STAGES, CLUSTER, PREFETCH, k_ptr)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(240)
        consume_s(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
                  k_full, k_empty, p_buf, scale_buf, o_ptr, lse_ptr,
                  oacc_ptr, lacc_ptr, meta_ptr, bt_ptr, seqlens_ptr,
                  splits_ptr, part, M, m0, h_q, s_q, qk_scale, BN, DH, HM,
                  STAGES, CAUSAL, CLUSTER, OVERLAP, ABLATE, RELOAD_Q, LEAN,
                  EARLY)
        txl.bar_wait(P_FREE, 256)  # warpgroup 2's last arrival
    if txl.is_warpgroup([2]):
        txl.reg_alloc(240)
        consume_o(k_hi, k_full, k_empty, p_buf, scale_buf, o_ptr, lse_ptr,
                  oacc_ptr, lacc_ptr, meta_ptr, bt_ptr, seqlens_ptr,
                  splits_ptr, part, M, m0, h_q, s_q, BN, DH, HM, STAGES,
                  CLUSTER, ABLATE, EARLY)


@txl.jit
def mla_combine(oacc_ptr, lacc_ptr, splits_ptr, o_ptr, lse_ptr, M, h_q, s_q,
                DV: tl.constexpr, ROWS: tl.constexpr):
    """Grid: (batch, cdiv(M, ROWS)). Merges the pieces of each batch entry
    that several parts shared (entries of one piece were written whole):
    O = sum_i w_i O_i / sum_i w_i with w_i = exp(lse_i - max_i lse_i)."""
    b = tl.program_id(0)
    rows = tl.program_id(1) * ROWS + tl.arange(0, ROWS)
    live = rows < M
    s0 = tl.load(splits_ptr + b)
    n = tl.load(splits_ptr + b + 1) - s0
    if n > 1:
        m = tl.full([ROWS], float("-inf"), tl.float32)
        for i in range(n):
            li = tl.load(lacc_ptr + (s0 + i) * M + rows, mask=live,
                         other=float("-inf"))
            m = tl.maximum(m, li)
        m_use = tl.where(m == float("-inf"), 0.0, m)
        total = tl.zeros([ROWS], dtype=tl.float32)
        acc = tl.zeros([ROWS, DV], dtype=tl.float32)
        cols = tl.arange(0, DV)
        for i in range(n):
            base = (s0 + i) * M
            li = tl.load(lacc_ptr + base + rows, mask=live,
                         other=float("-inf"))
            w = tl.exp(li - m_use)
            total += w
            oi = tl.load(oacc_ptr + (base + rows)[:, None] * DV +
                         cols[None, :], mask=live[:, None], other=0.0)
            acc += w[:, None] * oi
        seen = total > 0.0
        inv = tl.where(seen, 1.0 / total, 0.0)
        out = (acc * inv[:, None]).to(o_ptr.dtype.element_ty)
        tl.store(o_ptr + (b * M + rows)[:, None] * DV + cols[None, :], out,
                 mask=live[:, None])
        lse = tl.where(seen, m_use + tl.log(total), float("inf"))
        h = rows % h_q
        s = rows // h_q
        tl.store(lse_ptr + b * M + h * s_q + s, lse, mask=live)


# --- Sparse MLA prefill (DeepSeek-V3.2 DSA): every query token attends to
# its own top-k rows of the KV tensor.
#
# The decode kernel's schedule carries over with a token's 64 heads as the
# query tile and BN rows of its top-k list as a step. Two things change:
# - Gathering: sm_90 has no TMA gather instruction, so txl.tma_gather is
#   one TMA copy per row and 128-byte chunk (9 per row); at 64 rows a step
#   that many copies issue too slowly (topk 2048: 140 ms). CP_ASYNC=True
#   copies the rows with cp.async instead, 16 bytes a copy spread over the
#   producer's 128 threads (18 copies a thread for 32 rows), zero-filling
#   invalid rows. Completion is per thread, so the producer runs one step
#   behind: after issuing step j it waits for step j-1's groups
#   (async_load_wait fences them for wgmma and syncs the warpgroup) and one
#   thread arrives on step j-1's `full` barrier. A token's last step is
#   flushed before the next token starts (warpgroup 1 frees the query tile
#   only after its last scores, which need that step).
# - Persistence: a CTA takes tokens c, c + CTAs, ...; the next token's
#   query tile is loaded right behind its first rows, as soon as warpgroup
#   1 has freed the tile.
# Invalid indices (< 0 or >= s_kv) are masked to -inf in S (their rows
# read as zeros); max_logits and the LSE are kept in log2 units, as
# FlashMLA returns them.


@txl.jit
def gather_block(k_lo, k_hi, k_rope, bar, kv_desc, kvr_desc, idx,
                 DH: tl.constexpr):
    """Rows idx of the KV tensor into one stage, by TMA row gathers (an
    invalid index, -1 or past the end, reads zeros; its score is masked)."""
    txl.tma_gather(k_lo, kv_desc, bar, idx, 0)
    txl.tma_gather(k_hi, kv_desc, bar, idx, DH)
    txl.tma_gather(k_rope, kvr_desc, bar, idx, 2 * DH)


@txl.jit
def valid_keys(idx_ptr, s_kv, BN: tl.constexpr):
    """Which of the BN indices at idx_ptr name a row (0 <= i < s_kv), one
    flag per key column of S."""
    idx = tl.load(idx_ptr + tl.arange(0, BN))
    cols = txl.SliceLayout(0, txl.NVMMADistributedLayout(3, [4, 1],
                                                         [16, BN, 16]))
    return txl.relayout((idx >= 0) & (idx < s_kv), [BN], cols)


@txl.jit
def copy_rows(k_lo, k_hi, k_rope, kv_ptr, idx, s_kv, DH: tl.constexpr):
    """Rows idx of the KV tensor into one stage by cp.async, 16 bytes a
    copy spread over the producer warpgroup (sm_90 has no TMA gather
    instruction: one TMA copy per row and 128-byte chunk issues too
    slowly). Invalid rows are zero-filled. Three commit groups."""
    valid = (idx >= 0) & (idx < s_kv)
    rows = kv_ptr + tl.where(valid, idx, 0).to(tl.int64)[:, None] * (
        2 * DH + 64)
    cols = tl.arange(0, DH)[None, :]
    txl.async_load(k_lo, rows + cols, mask=valid[:, None])
    txl.async_load(k_hi, rows + DH + cols, mask=valid[:, None])
    txl.async_load(k_rope, rows + 2 * DH + tl.arange(0, 64)[None, :],
                   mask=valid[:, None])


@txl.jit
def sparse_produce(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
                   k_full, k_empty, q_desc, qr_desc, kv_desc, kvr_desc,
                   kv_ptr, idx_ptr, s_q, s_kv, h_q, topk, m0,
                   BN: tl.constexpr, DH: tl.constexpr, STAGES: tl.constexpr,
                   CP_ASYNC: tl.constexpr, Q_STAGES: tl.constexpr,
                   OVERLAP: tl.constexpr):
    """For each of this CTA's tokens: its top-k rows, BN at a time,
    gathered into the stage ring, and its query tile (after the first
    rows) into query stage t % Q_STAGES.

    With cp.async, step n's rows are announced (k_full) once step n + 1's
    copies are issued, so that two steps' copies are in flight. That
    needs a stage beyond those the consumer holds at once (one, or two
    with OVERLAP: the scores of step n + 1 before step n is released):
    otherwise the producer waits for a stage the consumer frees only after
    the announcement the producer has not made yet (a deadlock, found with
    TXL_DEBUG_SYNC at 2 stages with OVERLAP). Without that stage, each
    step is announced as soon as its own copies land."""
    DEFER: tl.constexpr = STAGES > 1 + OVERLAP
    ELEM: tl.constexpr = q_desc.dtype.primitive_bitwidth // 8
    Q_TILE: tl.constexpr = 64 * (2 * DH + 64) * ELEM
    TILE: tl.constexpr = BN * (2 * DH + 64) * ELEM
    leader = txl.tid(0) % 128 == 0
    it = 0
    t = 0
    for tok in range(tl.program_id(1), s_q, tl.num_programs(1)):
        for j in range(topk // BN):
            idx = tl.load(idx_ptr + tok * topk + j * BN + tl.arange(0, BN))
            s = it % STAGES
            txl.mbar_wait(txl.get_buffer(k_empty, s),
                          ((it // STAGES) & 1) ^ 1)
            bar = txl.get_buffer(k_full, s)
            if CP_ASYNC:
                copy_rows(txl.get_buffer(k_lo, s), txl.get_buffer(k_hi, s),
                          txl.get_buffer(k_rope, s), kv_ptr, idx, s_kv, DH)
                if not DEFER:
                    txl.async_load_wait(0)
                    txl.mbar_arrive(bar, pred=leader)
                elif j > 0:
                    # Step it-1's three groups have landed (the wait
                    # fences them for wgmma and syncs the warpgroup).
                    txl.async_load_wait(3)
                    txl.mbar_arrive(txl.get_buffer(k_full, (it - 1) % STAGES),
                                    pred=leader)
            else:
                txl.mbar_expect(bar, TILE)
                gather_block(txl.get_buffer(k_lo, s),
                             txl.get_buffer(k_hi, s),
                             txl.get_buffer(k_rope, s), bar, kv_desc,
                             kvr_desc, idx, DH)
            if j == 0:
                # The query tile once the last scores of the token that
                # used this query stage have read it (with one stage: the
                # previous token's, so the load waits for the end of its
                # softmax; with two, the load overlaps the previous token's
                # last steps): behind this token's first rows, which are
                # already on their way.
                qs = t % Q_STAGES
                q_bar = txl.get_buffer(q_full, qs)
                txl.mbar_wait(txl.get_buffer(q_empty, qs),
                              ((t // Q_STAGES) & 1) ^ 1)
                txl.mbar_expect(q_bar, Q_TILE)
                row = tok * h_q + m0
                txl.tma_load(txl.get_buffer(q_lo, qs), q_desc, [row, 0],
                             q_bar)
                txl.tma_load(txl.get_buffer(q_hi, qs), q_desc, [row, DH],
                             q_bar)
                txl.tma_load(txl.get_buffer(q_rope, qs), qr_desc,
                             [row, 2 * DH], q_bar)
                t += 1
            it += 1
        if CP_ASYNC and DEFER:
            # The token's last step, before the next query tile: warpgroup
            # 1 frees the tile only after its last scores.
            txl.async_load_wait(0)
            txl.mbar_arrive(txl.get_buffer(k_full, (it - 1) % STAGES),
                            pred=leader)


@txl.jit
def sparse_consume_s(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
                     k_full, k_empty, p_buf, scale_buf, o_ptr, ml_ptr,
                     lse_ptr, idx_ptr, s_q, s_kv, h_q, topk, m0, qk_scale,
                     BN: tl.constexpr, DH: tl.constexpr, HM: tl.constexpr,
                     STAGES: tl.constexpr, OVERLAP: tl.constexpr,
                     Q_STAGES: tl.constexpr):
    """Warpgroup 1 of the sparse kernel: as consume_s, with the scores of
    invalid indices masked, and max_logits and the LSE in log2 units
    (FlashMLA's)."""
    dt = q_lo.dtype
    s_rows = txl.SliceLayout(1, txl.NVMMADistributedLayout(3, [4, 1],
                                                           [16, BN, 16]))
    leader = txl.tid(0) % 128 == 0
    rows = m0 + tl.arange(0, HM)
    it = 0
    t = 0
    for tok in range(tl.program_id(1), s_q, tl.num_programs(1)):
        qs = t % Q_STAGES
        txl.mbar_wait(txl.get_buffer(q_full, qs), (t // Q_STAGES) & 1)
        q_lo_t = txl.get_buffer(q_lo, qs)
        q_hi_t = txl.get_buffer(q_hi, qs)
        q_rope_t = txl.get_buffer(q_rope, qs)
        m_i = txl.relayout(tl.full([HM], float("-inf"), tl.float32), [HM],
                           s_rows)
        l_i = txl.relayout(tl.zeros([HM], dtype=tl.float32), [HM],
                           s_rows)
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        base = idx_ptr + tok * topk
        if OVERLAP:
            # As consume_s: block 0 alone, then S_j under P_{j-1} V_{j-1}.
            S = scores(q_lo_t, q_hi_t, q_rope_t, k_lo, k_hi, k_rope, k_full, it,
                       STAGES)
            valid = valid_keys(base, s_kv, BN)
            txl.dot_wait(0)
            p, alpha, m_i, l_i = softmax_step(
                tl.where(valid[None, :], S, float("-inf")), m_i, l_i,
                qk_scale)
            p = p.to(dt)
            publish(p_buf, scale_buf, p, alpha)
            for j in range(1, topk // BN):
                S = scores(q_lo_t, q_hi_t, q_rope_t, k_lo, k_hi, k_rope, k_full,
                           it + 1, STAGES)
                acc = pv_left(acc, p, alpha, k_lo, it, HM, STAGES)
                valid = valid_keys(base + j * BN, s_kv, BN)
                txl.dot_wait(1)
                p_next, alpha, m_i, l_i = softmax_step(
                    tl.where(valid[None, :], S, float("-inf")), m_i, l_i,
                    qk_scale)
                txl.dot_wait(0)
                release(k_empty, it, leader, STAGES)
                p = p_next.to(dt)
                publish(p_buf, scale_buf, p, alpha)
                it += 1
            acc = pv_left(acc, p, alpha, k_lo, it, HM, STAGES)
            txl.dot_wait(0)
            release(k_empty, it, leader, STAGES)
            it += 1
        else:
            for j in range(topk // BN):
                S = scores(q_lo_t, q_hi_t, q_rope_t, k_lo, k_hi, k_rope, k_full,
                           it, STAGES)
                valid = valid_keys(base + j * BN, s_kv, BN)
                txl.dot_wait(0)
                p, alpha, m_i, l_i = softmax_step(
                    tl.where(valid[None, :], S, float("-inf")), m_i, l_i,
                    qk_scale)
                p = p.to(dt)
                publish(p_buf, scale_buf, p, alpha)
                acc = pv_left(acc, p, alpha, k_lo, it, HM, STAGES)
                txl.dot_wait(0)
                release(k_empty, it, leader, STAGES)
                it += 1
        txl.mbar_arrive(txl.get_buffer(q_empty, qs), pred=leader)
        t += 1
        seen = l_i > 0.0
        inv_l = tl.where(seen, tl.fdiv(1.0, l_i), 0.0)
        publish_scale(scale_buf, inv_l)
        lse = tl.where(seen, m_i + tl.log2(l_i), float("inf"))
        store_rows(o_ptr, lse_ptr, acc, inv_l, lse, tok * h_q, m0, h_q, 1,
                   h_q, tok * h_q, 0, DH, HM, True)
        tl.store(ml_ptr + tok * h_q + rows, m_i, mask=rows < h_q)


@txl.jit
def sparse_consume_o(k_hi, k_full, k_empty, p_buf, scale_buf, o_ptr, s_q,
                     h_q, topk, m0, BN: tl.constexpr, DH: tl.constexpr,
                     HM: tl.constexpr, STAGES: tl.constexpr):
    """Warpgroup 2 of the sparse kernel: the right half of O."""
    leader = txl.tid(0) % 128 == 0
    it = 0
    txl.bar_arrive(P_FREE, 256)  # the P buffer starts free
    for tok in range(tl.program_id(1), s_q, tl.num_programs(1)):
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        for j in range(topk // BN):
            s = it % STAGES
            txl.bar_wait(P_READY, 256)
            txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
            alpha = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
            acc = tl.dot(p_buf, txl.get_buffer(k_hi, s), acc * alpha[:, None])
            txl.dot_wait(0)
            txl.bar_arrive(P_FREE, 256)
            release(k_empty, it, leader, STAGES)
            it += 1
        txl.bar_wait(P_READY, 256)
        inv_l = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
        txl.bar_arrive(P_FREE, 256)
        store_rows(o_ptr, o_ptr, acc, inv_l, inv_l, tok * h_q, m0, h_q, 1,
                   h_q, 0, DH, DH, HM, False)


@txl.jit
def mla_sparse_fwd(q_desc, qr_desc, kv_desc, kvr_desc, idx_ptr, o_ptr,
                   ml_ptr, lse_ptr, s_q, s_kv, h_q, topk, qk_scale,
                   STAGES: tl.constexpr, BN: tl.constexpr = 64,
                   OVERLAP: tl.constexpr = False, kv_ptr=None,
                   CP_ASYNC: tl.constexpr = False,
                   Q_STAGES: tl.constexpr = 1):
    """Grid: (cdiv(h_q, 64), CTAs per head tile); CTA (m, c) takes heads
    64m.. of tokens c, c + CTAs, ... q rows are [s_q * h_q, 576], kv
    [s_kv, 576] (kv_ptr its base, for CP_ASYNC), indices [s_q, topk]
    int32; out [s_q * h_q, 512], max_logits and lse [s_q, h_q] fp32. The
    schedule is mla_decode's, with pages replaced by BN gathered rows of
    the token's top-k list (see the comment above gather_block). Measured
    on the H100 at s_q = s_kv = 16384, h_q = 128 (BN=32, 4 stages,
    cp.async; commit 077d377, before the softmax layout fix): topk 128 in
    4.5 ms, topk 2048 in 32 ms (293 TFLOP/s). Q_STAGES=2 double-buffers
    the query tile (with 2 K stages: the same shared memory), so a token's
    query loads under the previous token's last steps: topk 128 in
    3.97 ms (session 10, bench/RESULTS.md)."""
    HM: tl.constexpr = 64
    DH: tl.constexpr = 256
    dt = q_desc.dtype
    m0 = tl.program_id(0) * HM
    q_lo = txl.smem_alloc([HM, DH], dtype=dt, num_stages=Q_STAGES)
    q_hi = txl.smem_alloc([HM, DH], dtype=dt, num_stages=Q_STAGES)
    q_rope = txl.smem_alloc([HM, 64], dtype=dt, num_stages=Q_STAGES)
    k_lo = txl.smem_alloc([BN, DH], dtype=dt, num_stages=STAGES)
    k_hi = txl.smem_alloc([BN, DH], dtype=dt, num_stages=STAGES)
    k_rope = txl.smem_alloc([BN, 64], dtype=dt, num_stages=STAGES)
    p_buf = txl.get_buffer(txl.smem_alloc([HM, BN], dtype=dt), 0)
    scale_buf = txl.get_buffer(txl.smem_alloc([HM], dtype=tl.float32), 0)
    q_full = txl.mbar_alloc(1, num_stages=Q_STAGES)
    q_empty = txl.mbar_alloc(1, num_stages=Q_STAGES)
    k_full = txl.mbar_alloc(1, num_stages=STAGES)
    k_empty = txl.mbar_alloc(2, num_stages=STAGES)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(40)
        sparse_produce(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full,
                       q_empty, k_full, k_empty, q_desc, qr_desc, kv_desc,
                       kvr_desc, kv_ptr, idx_ptr, s_q, s_kv, h_q, topk, m0,
                       BN, DH, STAGES, CP_ASYNC, Q_STAGES, OVERLAP)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(232)
        sparse_consume_s(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full,
                         q_empty, k_full, k_empty, p_buf, scale_buf, o_ptr,
                         ml_ptr, lse_ptr, idx_ptr, s_q, s_kv, h_q, topk, m0,
                         qk_scale, BN, DH, HM, STAGES, OVERLAP, Q_STAGES)
        txl.bar_wait(P_FREE, 256)  # warpgroup 2's last arrival
    if txl.is_warpgroup([2]):
        txl.reg_alloc(232)
        sparse_consume_o(k_hi, k_full, k_empty, p_buf, scale_buf, o_ptr,
                         s_q, h_q, topk, m0, BN, DH, HM, STAGES)


# --- The pair schedule of the sparse prefill (mla_sparse_pair, the
# default): both consumers compute scores.
#
# What bounds mla_sparse_fwd: warpgroup 1 alone runs every wgmma of S (36
# of them a step, N = BN = 32: each reads as many shared-memory bytes of Q
# as of K, so the tensor core waits on shared memory) and the softmax, while
# warpgroup 2 only ever runs half of P V (ncu, topk 2048: SM busy 33%).
#
# The pair schedule (FlashMLA's sm90 sparse prefill has this shape) takes
# the top-k list 128 rows at a time, as two blocks of 64 rows: block 0 in K
# stage 0, block 1 in K stage 1. Warpgroup 1 computes S_0 = Q K_0^T,
# warpgroup 2 S_1 = Q K_1^T (36 m64n64k16 wgmmas each: N = 64 halves the
# shared memory Q costs per flop), and the two share the online softmax's
# running row maximum m through shared memory, so P_0 and P_1 end up on
# one scale:
#
#   warpgroup 1 (O_L = O[:, :256])      warpgroup 2 (O_R = O[:, 256:])
#   S_0 = Q K_0^T                       S_1 = Q K_1^T
#   m_0 = max(m, rowmax S_0) --MAX0-->  m' = max(m_0, rowmax S_1)
#   P_0 = exp2(S_0 - m_0)               P_1 = exp2(S_1 - m')
#   O_L = O_L a_0 + P_0 V_0[:, :256]    O_R = O_R a' + P_1 V_1[:, 256:]
#                            <--MAX1--  (m' to shared memory)
#   f = exp2(m_0 - m'), P_0 f -> smem   P_1 -> smem
#                            --P0-->    O_R += P_0 V_0[:, 256:]
#   O_L = O_L f + P_1 V_1[:, :256] <--P1--
#
# (a = exp2(m_old - m_new) rescales what was summed under the old maximum;
# the row sums l are kept the same way, one per warpgroup, added at the
# token's end.) Each warpgroup owns half of O's 512 columns for both
# blocks: its own P from registers (wgmma with A in registers), the
# other's from shared memory. Warpgroup 1 publishes its maximum before it
# knows warpgroup 2's, so its softmax and its first P V run while
# warpgroup 2 is still in its scores, and it moves P_0 and O_L to the
# pair's maximum by f afterwards: the two are staggered, and the tensor
# core mostly has one of them to run. Warpgroup 1 also issues the next
# pair's scores right behind its last P V of this pair, and loads the
# next block's index flags under them (its softmax heads each pair's
# chain: it must not wait for a load).
#
# The producer gathers each block as two parts, each with its own full and
# empty mbarrier: "lo" (channels 0-255) and "hi" (256-511 and the rope),
# in the order the consumers need them (K_0 lo, K_1 hi, K_0 hi, K_1 lo:
# each warpgroup starts its scores on the part that arrives first). A part
# is freed by the one warpgroup that reads it last: K_0 lo by warpgroup 1
# after P_0 V_0[:, :256]; K_0 hi by warpgroup 2 after P_0 V_0[:, 256:]
# (which it can only issue after warpgroup 1's S_0, since P_0 comes after
# it); K_1 lo by warpgroup 1; K_1 hi by warpgroup 2. Every producer thread
# copies 16-byte chunks with cp.async, then arrives on the part's `full`
# barrier with cp.async.mbarrier.arrive.noinc (128 arrivals: the barrier
# completes when every thread's copies have landed; the waiting consumer
# fences them for wgmma), so the producer never waits for its own copies
# and runs as far ahead as the free parts let it. P_0 lives in K_0's rope
# rows (read only by S_0, freed with K_0 hi): that is what lets the query
# tile, two 64-row blocks and P_1 fit in shared memory (226.5 KB).
#
# Persistence: a CTA takes tokens c, c + CTAs, ...; both consumers free the
# query tile once their last scores of a token have retired, so the next
# token's query tile loads under this token's last softmax, P V and output
# stores. The output halves go through the K part each warpgroup reads
# last (K_1 lo, K_0 hi: they are 64 x 256, as a half of O is) and a TMA
# store, which writes whole 32-byte sectors from one thread, instead of
# 128 four-byte stores a thread from the accumulator's registers (each
# fills half a sector); the part is freed once the store has read it
# (topk 128: 2.23 ms against 3.48 ms with the register stores, which stay
# for h_q not a multiple of 64).
# An odd number of blocks (top-k 64, 192, ...) is padded to pairs with
# invalid indices: the missing block's rows are zero-filled and its scores
# masked, which keeps both consumers' schedules unconditional.
#
# Registers: 232 for each consumer (O's half is 128 a thread, S 32, P 16)
# and 40 for the producer. The 72 wgmma descriptors of S would take 144
# more if the compiler hoisted them out of the pair loop, which it does
# for buffers indexed by constants; loop_zero keeps them inside.
MAX0 = 12     # named barrier: warpgroup 1 -> 2, "m_0 is in shared memory"
MAX1 = 13     # named barrier: warpgroup 2 -> 1, "m' is in shared memory"
P0_READY = 14  # named barrier: warpgroup 1 -> 2, "P_0 is in shared memory"
P1_READY = 15  # named barrier: warpgroup 2 -> 1, "P_1 is in shared memory"
L_READY = 11   # named barrier of both: a token's row sums exchanged
# How the producer copies 64 columns of 64 gathered rows: 16 bytes of a row
# a thread, eight threads a row, sixteen rows a pass of the warpgroup.
COPY_LAYOUT = txl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
# S's accumulator (64 x 64) and one value per row of it.
S_LAYOUT = txl.NVMMADistributedLayout(3, [4, 1], [16, 64, 16])
S_ROWS = txl.SliceLayout(1, S_LAYOUT)
S_COLS = txl.SliceLayout(0, S_LAYOUT)


@txl.jit
def copy_part(buf, kv_ptr, idx, s_kv, col0: tl.constexpr,
              CHUNKS: tl.constexpr):
    """Columns col0 .. col0 + 64 * CHUNKS of the 64 KV rows `idx` (one
    index per row of COPY_LAYOUT) into the shared buffer `buf` (64 x 64 *
    CHUNKS), 64 columns (one 128-byte swizzle atom) at a time, by cp.async;
    invalid rows are zero-filled."""
    valid = (idx >= 0) & (idx < s_kv)
    rows = kv_ptr + tl.where(valid, idx, 0).to(tl.int64)[:, None] * 576
    cols = txl.relayout(tl.arange(0, 64), [64],
                        txl.SliceLayout(0, COPY_LAYOUT))
    for c in tl.static_range(CHUNKS):
        txl.async_load(txl.smem_slice(buf, c * 64, 64, 1),
                       rows + (col0 + c * 64) + cols[None, :],
                       mask=valid[:, None], contiguity=8)


@txl.jit
def block_indices(idx_ptr, tok, topk, blk, layout: tl.constexpr):
    """The 64 indices of block `blk` of token `tok`'s list, in `layout`;
    -1 (invalid) past the end of the list (the padding block of an odd
    count)."""
    offs = blk * 64 + txl.relayout(tl.arange(0, 64), [64], layout)
    return tl.load(idx_ptr + tok * topk + offs, mask=offs < topk, other=-1)


@txl.jit
def pair_produce(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
                 lo_full, lo_empty, hi_full, hi_empty, q_desc, qr_desc,
                 kv_ptr, idx_ptr, s_q, s_kv, h_q, topk, m0):
    """For each of this CTA's tokens: its query tile, then its blocks, a
    pair at a time, part by part in the order the consumers use them."""
    ELEM: tl.constexpr = q_desc.dtype.primitive_bitwidth // 8
    Q_TILE: tl.constexpr = 64 * 576 * ELEM
    rows = txl.SliceLayout(1, COPY_LAYOUT)
    it = 0
    t = 0
    for tok in range(tl.program_id(1), s_q, tl.num_programs(1)):
        txl.mbar_wait(q_empty, (t & 1) ^ 1)
        txl.mbar_expect(q_full, Q_TILE)
        row = tok * h_q + m0
        txl.tma_load(txl.get_buffer(q_lo, 0), q_desc, [row, 0], q_full)
        txl.tma_load(txl.get_buffer(q_hi, 0), q_desc, [row, 256], q_full)
        txl.tma_load(txl.get_buffer(q_rope, 0), qr_desc, [row, 512], q_full)
        t += 1
        for pair in range(tl.cdiv(topk, 128)):
            idx0 = block_indices(idx_ptr, tok, topk, 2 * pair, rows)
            idx1 = block_indices(idx_ptr, tok, topk, 2 * pair + 1, rows)
            free = (it & 1) ^ 1
            txl.mbar_wait(txl.get_buffer(lo_empty, 0), free)
            copy_part(txl.get_buffer(k_lo, 0), kv_ptr, idx0, s_kv, 0, 4)
            txl.mbar_arrive(txl.get_buffer(lo_full, 0), track_async_op=True)
            txl.mbar_wait(txl.get_buffer(hi_empty, 1), free)
            copy_part(txl.get_buffer(k_hi, 1), kv_ptr, idx1, s_kv, 256, 4)
            copy_part(txl.get_buffer(k_rope, 1), kv_ptr, idx1, s_kv, 512, 1)
            txl.mbar_arrive(txl.get_buffer(hi_full, 1), track_async_op=True)
            txl.mbar_wait(txl.get_buffer(hi_empty, 0), free)
            copy_part(txl.get_buffer(k_hi, 0), kv_ptr, idx0, s_kv, 256, 4)
            copy_part(txl.get_buffer(k_rope, 0), kv_ptr, idx0, s_kv, 512, 1)
            txl.mbar_arrive(txl.get_buffer(hi_full, 0), track_async_op=True)
            txl.mbar_wait(txl.get_buffer(lo_empty, 1), free)
            copy_part(txl.get_buffer(k_lo, 1), kv_ptr, idx1, s_kv, 0, 4)
            txl.mbar_arrive(txl.get_buffer(lo_full, 1), track_async_op=True)
            it += 1


@txl.jit
def valid_block(idx_ptr, tok, topk, blk, s_kv):
    """Which of block blk's 64 keys are real rows, one flag per column of
    S (loaded before the scores are waited for: the load hides under
    them)."""
    idx = block_indices(idx_ptr, tok, topk, blk, S_COLS)
    return (idx >= 0) & (idx < s_kv)


@txl.jit
def softmax_rows(S, valid, m_floor, m_run, l_i, qk_scale):
    """The online softmax of one block against the running maximum m_run
    (and sum l_i): the new maximum is at least m_floor (warpgroup 2 starts
    from warpgroup 1's m_0); P = exp2(S - m), alpha = exp2(m_run - m). A row
    that has seen no valid key keeps m = -inf and uses 0 in the
    exponents (P = 0, alpha = 0)."""
    S = tl.where(valid[None, :], S, float("-inf"))
    m_new = tl.maximum(m_floor, txl.warp_max(S, 1) * qk_scale)
    m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
    p = tl.extra.cuda.libdevice.exp2(tl.fma(S, qk_scale, -m_use[:, None]))
    alpha = tl.extra.cuda.libdevice.exp2(m_run - m_use)
    return p, alpha, m_new, l_i * alpha + txl.warp_sum(p, 1)


@txl.jit
def rescaled(acc, scale):
    """acc * scale per row (scale in S's row layout)."""
    return acc * txl.relayout(scale, [64], ROW_LAYOUT)[:, None]


@txl.jit
def pair_finish(acc, l_i, m_i, l_bufs, w: tl.constexpr, o_ptr, o_desc,
                stage, empty, ml_ptr, lse_ptr, tok, m0, h_q,
                WITH_STATS: tl.constexpr, TMA_STORE: tl.constexpr):
    """End of a token for consumer w (0 or 1, warpgroup w + 1): the two
    row sums exchanged (named barrier L_READY, both warpgroups), this
    warpgroup's O half normalized and stored, then the part `stage` of the
    K ring (this warpgroup's last read of the token) freed on `empty`; with
    WITH_STATS also the rows' max_logits and LSE (log2 units).

    TMA_STORE: the half goes through `stage` (64 x 256, as O's half) and
    one TMA store: full 32-byte sectors, issued by one thread, instead of
    128 four-byte stores a thread that fill half a sector each; the part
    is freed once the store has read it. Otherwise it is stored straight
    from the accumulator's registers (any h_q; a TMA box of 64 rows would
    run into the next token's rows when h_q is not a multiple of 64)."""
    leader = txl.tid(0) % 128 == 0
    txl.smem_store(txl.get_buffer(l_bufs, w), l_i)
    txl.bar_wait(L_READY, 256)
    l_i += txl.frag_smem_load(txl.get_buffer(l_bufs, 1 - w), [64], S_ROWS)
    seen = l_i > 0.0
    inv_l = tl.where(seen, tl.fdiv(1.0, l_i), 0.0)
    lse = tl.where(seen, m_i + tl.log2(l_i), float("inf"))
    if TMA_STORE:
        txl.smem_store(stage, rescaled(acc, inv_l).to(stage.dtype))
        txl.tma_store(stage, o_desc, [tok * h_q + m0, w * 256])
        txl.tma_store_wait(0)  # (the leader's wait: it frees the part)
        txl.mbar_arrive(empty, pred=leader)
    else:
        # (Streaming stores, st.global.cs, were slower: topk 128 in 3.48
        # ms against 3.23 with plain ones, a call apart and with block 0's
        # flag prefetch added in between, so not isolated.)
        txl.mbar_arrive(empty, pred=leader)
        store_rows(o_ptr, lse_ptr, acc, inv_l, lse, tok * h_q, m0, h_q, 1,
                   h_q, tok * h_q, w * 256, 256, 64, False)
    if WITH_STATS:
        rows = m0 + tl.arange(0, 64)
        live = rows < h_q
        tl.store(ml_ptr + tok * h_q + rows, m_i, mask=live)
        tl.store(lse_ptr + tok * h_q + rows, lse, mask=live)


@txl.jit
def loop_zero(it):
    """0, as a value that changes with the loop counter `it` (< 2^30) for
    the compiler: buffers indexed with it stay inside the loop. Indexed
    with constants, the 72 wgmma descriptors of S (Q's and K's, 64 bits
    each) are hoisted out of the loop and held there: 144 registers next
    to O's 128, which spill."""
    return it >> 30


@txl.jit
def fresh_rows():
    """A token's running max, row sum (in S's row layout) and O half."""
    m_i = txl.relayout(tl.full([64], float("-inf"), tl.float32), [64],
                       S_ROWS)
    l_i = txl.relayout(tl.zeros([64], dtype=tl.float32), [64], S_ROWS)
    return m_i, l_i, tl.zeros([64, 256], dtype=tl.float32)


@txl.jit
def pair_consume_1(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
                   lo_full, lo_empty, hi_full, p1_buf, max_bufs, l_bufs,
                   o_ptr, o_desc, ml_ptr, lse_ptr, idx_ptr, s_q, s_kv, h_q,
                   topk, m0, qk_scale, TMA_STORE: tl.constexpr):
    """Warpgroup 1: block 0 of each pair (K stage 0), O[:, :256]."""
    dt = q_lo.dtype
    leader = txl.tid(0) % 128 == 0
    pairs = tl.cdiv(topk, 128)
    it = 0
    t = 0
    for tok in range(tl.program_id(1), s_q, tl.num_programs(1)):
        txl.mbar_wait(q_full, t & 1)
        t += 1
        m_i, l_i, acc = fresh_rows()
        z = loop_zero(it)
        # Block 0's flags are loaded a pair ahead, under the scores: this
        # warpgroup's softmax heads the pair's chain (warpgroup 2 waits
        # for its maximum), so it must not wait for a load.
        valid = valid_block(idx_ptr, tok, topk, 0, s_kv)
        txl.mbar_wait(txl.get_buffer(lo_full, 0), it & 1)
        S = tl.dot(txl.get_buffer(q_lo, z), txl.get_buffer(k_lo, z).T)
        txl.mbar_wait(txl.get_buffer(hi_full, 0), it & 1)
        S = tl.dot(txl.get_buffer(q_hi, z), txl.get_buffer(k_hi, z).T, S)
        S = tl.dot(txl.get_buffer(q_rope, z), txl.get_buffer(k_rope, z).T,
                   S)
        for pair in range(pairs):
            z = loop_zero(it)
            txl.dot_wait(0)
            if pair == pairs - 1:
                txl.mbar_arrive(q_empty, pred=leader)  # last scores done
            p, alpha, m_0, l_i = softmax_rows(S, valid, m_i, m_i, l_i,
                                              qk_scale)
            txl.smem_store(txl.get_buffer(max_bufs, 0), m_0)
            txl.bar_arrive(MAX0, 256)
            acc = tl.dot(p.to(dt), txl.get_buffer(k_lo, z),
                         rescaled(acc, alpha))
            # The pair's maximum, from warpgroup 2: P_0 and O_L move to it.
            txl.bar_wait(MAX1, 256)
            m_i = txl.frag_smem_load(txl.get_buffer(max_bufs, 1), [64],
                                     S_ROWS)
            f = tl.extra.cuda.libdevice.exp2(
                m_0 - tl.where(m_i == float("-inf"), 0.0, m_i))
            # P_0 in K_0's rope rows, which only S_0 read.
            txl.smem_store(txl.get_buffer(k_rope, z),
                           (p * f[:, None]).to(dt))
            txl.fence_proxy_async()
            txl.bar_arrive(P0_READY, 256)
            l_i = l_i * f
            txl.dot_wait(0)
            release(lo_empty, 0, leader, 2)
            txl.bar_wait(P1_READY, 256)
            acc = tl.dot(p1_buf, txl.get_buffer(k_lo, 1 + z),
                         rescaled(acc, f))
            it += 1
            if pair + 1 < pairs:
                # The next pair's scores behind this P V: the tensor core
                # goes on without waiting for this warpgroup.
                z = loop_zero(it)
                valid = valid_block(idx_ptr, tok, topk, 2 * pair + 2, s_kv)
                txl.mbar_wait(txl.get_buffer(lo_full, 0), it & 1)
                S = tl.dot(txl.get_buffer(q_lo, z),
                           txl.get_buffer(k_lo, z).T)
                txl.dot_wait(1)
                release(lo_empty, 1, leader, 2)
                txl.mbar_wait(txl.get_buffer(hi_full, 0), it & 1)
                S = tl.dot(txl.get_buffer(q_hi, z),
                           txl.get_buffer(k_hi, z).T, S)
                S = tl.dot(txl.get_buffer(q_rope, z),
                           txl.get_buffer(k_rope, z).T, S)
            else:
                txl.dot_wait(0)  # K_1 lo is freed by pair_finish
        pair_finish(acc, l_i, m_i, l_bufs, 0, o_ptr, o_desc,
                    txl.get_buffer(k_lo, 1), txl.get_buffer(lo_empty, 1),
                    ml_ptr, lse_ptr, tok, m0, h_q, False, TMA_STORE)


@txl.jit
def pair_consume_2(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full, q_empty,
                   lo_full, hi_full, hi_empty, p1_buf, max_bufs, l_bufs,
                   o_ptr, o_desc, ml_ptr, lse_ptr, idx_ptr, s_q, s_kv, h_q,
                   topk, m0, qk_scale, TMA_STORE: tl.constexpr):
    """Warpgroup 2: block 1 of each pair (K stage 1), O[:, 256:]."""
    dt = p1_buf.dtype
    leader = txl.tid(0) % 128 == 0
    pairs = tl.cdiv(topk, 128)
    it = 0
    t = 0
    for tok in range(tl.program_id(1), s_q, tl.num_programs(1)):
        txl.mbar_wait(q_full, t & 1)
        t += 1
        m_i, l_i, acc = fresh_rows()
        for pair in range(pairs):
            z = loop_zero(it)
            valid = valid_block(idx_ptr, tok, topk, 2 * pair + 1, s_kv)
            txl.mbar_wait(txl.get_buffer(hi_full, 1), it & 1)
            S = tl.dot(txl.get_buffer(q_hi, z), txl.get_buffer(k_hi, 1 + z).T)
            S = tl.dot(txl.get_buffer(q_rope, z),
                       txl.get_buffer(k_rope, 1 + z).T, S)
            txl.mbar_wait(txl.get_buffer(lo_full, 1), it & 1)
            S = tl.dot(txl.get_buffer(q_lo, z), txl.get_buffer(k_lo, 1 + z).T,
                       S)
            txl.dot_wait(0)
            if pair == pairs - 1:
                txl.mbar_arrive(q_empty, pred=leader)  # last scores done
            txl.bar_wait(MAX0, 256)
            m_0 = txl.frag_smem_load(txl.get_buffer(max_bufs, 0), [64],
                                     S_ROWS)
            p, alpha, m_i, l_i = softmax_rows(S, valid, m_0, m_i, l_i,
                                              qk_scale)
            txl.smem_store(txl.get_buffer(max_bufs, 1), m_i)
            txl.bar_arrive(MAX1, 256)
            p = p.to(dt)
            acc = tl.dot(p, txl.get_buffer(k_hi, 1 + z), rescaled(acc, alpha))
            txl.smem_store(p1_buf, p)
            txl.fence_proxy_async()
            txl.bar_wait(P0_READY, 256)
            acc = tl.dot(txl.get_buffer(k_rope, z), txl.get_buffer(k_hi, z),
                         acc)
            txl.bar_arrive(P1_READY, 256)
            txl.dot_wait(1)
            release(hi_empty, 1, leader, 2)
            txl.dot_wait(0)
            if pair + 1 < pairs:  # (the last is freed by pair_finish)
                release(hi_empty, 0, leader, 2)
            it += 1
        pair_finish(acc, l_i, m_i, l_bufs, 1, o_ptr, o_desc,
                    txl.get_buffer(k_hi, 0), txl.get_buffer(hi_empty, 0),
                    ml_ptr, lse_ptr, tok, m0, h_q, True, TMA_STORE)


@txl.jit
def mla_sparse_pair(q_desc, qr_desc, kv_ptr, idx_ptr, o_ptr, o_desc, ml_ptr,
                    lse_ptr, s_q, s_kv, h_q, topk, qk_scale,
                    TMA_STORE: tl.constexpr = False):
    """Grid: (cdiv(h_q, 64), CTAs per head tile); CTA (m, c) takes heads
    64m.. of tokens c, c + CTAs, ... q rows are [s_q * h_q, 576], kv
    [s_kv, 576] contiguous (kv_ptr), indices [s_q, topk] int32; out
    [s_q * h_q, 512], max_logits and lse [s_q, h_q] fp32; o_desc the
    output as [s_q * h_q, 512] rows in 64 x 256 boxes (TMA_STORE, for
    h_q a multiple of 64). The pair schedule: see the comment above MAX0.
    Measured on the H100 at s_q = s_kv = 16384, h_q = 128 (session 12):
    topk 128 in 2.23 ms (74% of DRAM bandwidth in ncu; 3.48 ms with the
    register stores), topk 2048 in 18.4 ms (508 TFLOP/s)."""
    dt = q_desc.dtype
    m0 = tl.program_id(0) * 64
    q_lo = txl.smem_alloc([64, 256], dtype=dt)
    q_hi = txl.smem_alloc([64, 256], dtype=dt)
    q_rope = txl.smem_alloc([64, 64], dtype=dt)
    k_lo = txl.smem_alloc([64, 256], dtype=dt, num_stages=2)
    k_hi = txl.smem_alloc([64, 256], dtype=dt, num_stages=2)
    k_rope = txl.smem_alloc([64, 64], dtype=dt, num_stages=2)
    p1_buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=dt), 0)
    max_bufs = txl.smem_alloc([64], dtype=tl.float32, num_stages=2)
    l_bufs = txl.smem_alloc([64], dtype=tl.float32, num_stages=2)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    q_empty = txl.get_buffer(txl.mbar_alloc(2), 0)  # both consumers
    lo_full = txl.mbar_alloc(128, num_stages=2)  # every producer thread
    hi_full = txl.mbar_alloc(128, num_stages=2)
    lo_empty = txl.mbar_alloc(1, num_stages=2)  # the part's last reader
    hi_empty = txl.mbar_alloc(1, num_stages=2)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(40)
        pair_produce(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full,
                     q_empty, lo_full, lo_empty, hi_full, hi_empty, q_desc,
                     qr_desc, kv_ptr, idx_ptr, s_q, s_kv, h_q, topk, m0)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(232)
        pair_consume_1(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full,
                       q_empty, lo_full, lo_empty, hi_full, p1_buf,
                       max_bufs, l_bufs, o_ptr, o_desc, ml_ptr, lse_ptr,
                       idx_ptr, s_q, s_kv, h_q, topk, m0, qk_scale,
                       TMA_STORE)
    if txl.is_warpgroup([2]):
        txl.reg_alloc(232)
        pair_consume_2(q_lo, q_hi, q_rope, k_lo, k_hi, k_rope, q_full,
                       q_empty, lo_full, hi_full, hi_empty, p1_buf,
                       max_bufs, l_bufs, o_ptr, o_desc, ml_ptr, lse_ptr,
                       idx_ptr, s_q, s_kv, h_q, topk, m0, qk_scale,
                       TMA_STORE)
