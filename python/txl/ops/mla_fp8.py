"""MLA decoding against an fp8 (e4m3) KV cache with per-tile scales:
mla_decode_fp8, the fp8 variant of mla.py's mla_decode (read that
docstring first: the split-KV parts, the three warpgroups, the P
hand-over and the combine are the same).

The cache format is FlashMLA's "FP8 with scale" (DeepSeek-V3.2): every
token is 656 bytes,

    bytes   0..511  the 512 "nope" channels (also V) as float8_e4m3
    bytes 512..527  four fp32 scales, one per 128 nope channels
    bytes 528..655  the 64 "rope" channels, bf16, not quantized

so channel c < 512 of a token is e4m3[c] * scale[c // 128] (1 x 128 tiles
of one token each), in pages of 64 tokens: k_cache [num_blocks, 64, 1,
656] (float8_e4m3fn or uint8), pages contiguous. The cache is read at
656 / 1152 = 57% of the bf16 cache's bytes: the KV-read floor drops
accordingly. Computation stays bf16 (as FlashMLA's fp8 kernels): q is
bf16, the pages are dequantized to bf16 in shared memory and both GEMMs
run on bf16 wgmmas with fp32 accumulators, so the only rounding beyond the
bf16 kernel's is the dequantized value's own: bf16(e4m3 * bf16(scale)),
exact when the scale is a power of two (FlashMLA's quantizer makes them
so).

Dequantizing: sm_90 has no e4m3 -> bf16 conversion, so it is done on the
bits. An e4m3 byte s.eeee.mmm placed in a bf16 as s.0000eeee.mmm0000 is
exactly the e4m3 value times 2^-120 (its exponent field now read with
bf16's bias, 127, instead of e4m3's, 7), subnormals included, and never a
NaN or an infinity; one bf16x2 multiply by bf16(scale * 2^120) then gives
the dequantized value. Four values take two masks, four byte permutes,
two shifts, two ors and two multiplies (E4M3_TO_BF16 below). Scales must be
below 2^8 (|K| up to 448 * 2^8), which FlashMLA-style quantization keeps
by far. Rows past seqlen get scale 0 (whatever their bytes), so the
ragged last page needs no separate zeroing: the dequantized rows are 0
and their scores are masked as in mla_decode.

The schedule (one CTA = 64 query rows x one run of whole pages, the
steps of mla_decode; three warpgroups). The unit of dequantization is a
*half* page: channels 0-255 (the "first half", warpgroup 1's V) or
256-511 (the "second half", warpgroup 2's V) of 64 tokens, 32 KB of bf16.
Half h of the part's page n goes to dequantized slot (2n + h) % 3 of a
ring of three, so a page's halves need not be freed together:

- warpgroup 0, the producer, in two warps. Warp 0 loads the query tile
  of each entry (bf16, as in mla_decode). Warp 1 loads the pages, never
  waiting for a query tile (warpgroup 2 works up to two pages ahead,
  across the ends of entries): per page its first e4m3 half (a [64, 256]
  box) into raw buffer 0 together with its scales (fp32 [64, 4]) into
  scale slot n % 2, its rope (bf16 [64, 64]) into rope slot n % 2 and
  its second half into raw buffer 1, all through TMA from three
  descriptors over the same cache bytes, each as soon as its buffer is
  free; and it asks L2 for the page PREFETCH pages ahead (one bulk
  prefetch of its 41984 contiguous bytes), since the raw buffers hold a
  single page and so issue each load only about a page before its use.
  (The scales ride with the first half: the rope slot frees only when
  the scores two pages back retire, and a first half queued behind it
  arrived too late.)
- warpgroup 1: S = Q K^T of page n, the first half's 16 wgmmas as soon
  as that slot is published, then the second half's (whose
  dequantization may still be finishing meanwhile), then the rope's;
  the masks and online softmax of mla_decode, P and alpha to warpgroup
  2, O[:, :256] += P V[:, :256] from the first half's slot, which it
  then frees.
- warpgroup 2 dequantizes ahead of both and owns O[:, 256:]. Per page n:
  it waits for P, issues O[:, 256:] += P V[:, 256:] (the second half's
  slot), and while that runs dequantizes page n + 1's second half into
  the slot warpgroup 1's P V of page n frees (raw buffer 1 -> slot
  (2n + 3) % 3); it then retires its P V, frees its slot, and
  dequantizes page n + 2's first half into it (raw buffer 0). So each
  page's first half is ready a page early and its second half lands
  while warpgroup 1 runs the first half's part of the next scores.
  A slot is published (`d_full`) once its writes are fenced for the
  async proxy and all of warpgroup 2 has passed named barrier DEQ_SYNC.

A raw buffer is freed once dequantized (`raw_empty`). The scale slots
need no barriers of their own: page n + 1's scales go to the slot page
n - 1's used, whose last reader (page n - 1's second half) warpgroup 2
dequantizes before page n's first half, whose release of raw buffer 0
the load waits for. A rope slot is freed once warpgroup 1's
scores have retired. With CLUSTER=2 the two CTAs of a cluster (the two
query tiles of the same pages) split each page's boxes and multicast
them, and every release arrives in both CTAs. Shared memory: the 72 KB
query tile, three 32 KB dequantized slots, two 16 KB raw buffers, two
1 KB scale slots, two 8 KB rope slots and the 8 KB P: all 232448 bytes.

Why this shape: a page step (n64 scores) reads the 72 KB query tile from
shared memory once per 64 tokens instead of 32 and pays the softmax and
the hand-overs once, but a whole page dequantized is 64 KB, and the query
tile leaves room for two such sets only with no raw stages at all. The
three half-page slots keep one half of page n + 1 dequantized during all
of page n's work and overlap the other with the start of page n + 1's
scores.

Measured (H100, b=132, s_q=1, s_k=32768, h_q=128, `bench_mla.py --quick
--skip ragged,sq2,sparse --ab fp8`): session 11's schedule (half-page
steps, two 32 KB dequantized sets, four raw stages) took 3.84 ms against
the bf16 decode's 2.04 ms (3.76 against 2.25 at 33eecfe): its n32 scores
and per-step overhead cost 0.8 ms and the conversion 0.85 ms. This
schedule before the L2 prefetch and the two producer warps (bda4a91):
3.30 ms against the bf16 decode's 2.00 in the same run, and 3.12 ms
without the e4m3 arithmetic (CONVERT=False), so the conversion is now
hidden but something else costs a page about 1.5 us beyond the ~1.5 us
its chain of work (scores, softmax, P V, a half dequantized) needs. The
likely cause: each raw buffer holds one page, so a raw load is issued
one page before its use, and a TMA load from DRAM under this traffic
takes longer than that (the bf16 kernel's two page stages give it
about two pages, which fits its 1.9 us per page with a latency of ~2.4
us, the same latency that would put this kernel at its 3.0-3.2 us per
page). PREFETCH asks L2 for each page four pages before its loads; not
yet measured on the GPU.

Named barriers: mla.py's 8 and 9 (the P hand-over), 12 (warpgroup 2
alone: its dequantized tiles are written).
"""
import triton.language as tl
import txl

from .mla import (PAGE, P_FREE, P_READY, ROW_LAYOUT, page_softmax,
                  piece_bounds, publish, publish_scale, store_rows)

NOPE = 512       # quantized channels a token (also V)
TOKEN_BYTES = 656  # 512 e4m3, four fp32 scales, 64 bf16
TILE = 128       # channels per scale
SCALES = NOPE // TILE
DH = NOPE // 2   # channels of a half (one consumer's V half)
DEQ_SYNC = 12    # named barrier of warpgroup 2 alone
# 2^120: bf16's exponent bias minus e4m3's (see E4M3_TO_BF16).
BIAS_SCALE = 1.329227995784916e+36
# The rows of S (a 64 x 64 accumulator): the softmax's row statistics.
S_ROWS = txl.SliceLayout(1, txl.NVMMADistributedLayout(3, [4, 1],
                                                       [16, PAGE, 16]))
# The dequantization's layout: one scale tile ([64, 128]) at a time, 8
# channels a thread (8 bytes of e4m3 read, 16 bytes of bf16 written: one
# swizzle unit), eight rows a warp.
DEQ_LAYOUT = txl.BlockedLayout([1, 8], [8, 4], [4, 1], [1, 0])
# The rows' four scales ([64, 4] fp32): one a lane, a row in the four
# lanes that convert it (so a 4-lane sum selects a row's scale in the
# rows of DEQ_LAYOUT).
SCALE_LAYOUT = txl.BlockedLayout([1, 1], [8, 4], [4, 1], [1, 0])
# Four e4m3 bytes ($2) to four bf16 ($0, $1) times a bf16 pair each ($3,
# $4, the scale * 2^120): the magnitude bytes (sign masked off) spread to
# the high byte of each 16-bit half and shifted down by 4 put eeee.mmm at
# bf16 bits 10..4; the sign bytes spread the same way land on bit 15.
E4M3_TO_BF16 = """{
    .reg .b32 m, s, a, b;
    and.b32 m, $2, 0x7f7f7f7f;
    and.b32 s, $2, 0x80808080;
    prmt.b32 a, m, 0, 0x1404;
    prmt.b32 b, m, 0, 0x3424;
    shr.b32 a, a, 4;
    shr.b32 b, b, 4;
    prmt.b32 m, s, 0, 0x1404;
    prmt.b32 s, s, 0, 0x3424;
    or.b32 a, a, m;
    or.b32 b, b, s;
    mul.rn.bf16x2 $0, a, $3;
    mul.rn.bf16x2 $1, b, $4;
}"""


@txl.jit
def release_both(bar, leader, CLUSTER: tl.constexpr):
    """One arrival on `bar` in this CTA and, with CLUSTER=2, in the peer
    (whose producer multicasts into our copy of the stage)."""
    txl.mbar_arrive(bar, pred=leader)
    if CLUSTER == 2:
        txl.mbar_arrive(bar, pred=leader, cta_id=txl.cta_rank() ^ 1)


@txl.jit
def load_page_fp8(raw, k_rope, k_scale, raw_full, raw_empty, rope_full,
                  rope_empty, kn_desc, kr_desc, ks_desc, krow, n,
                  CLUSTER: tl.constexpr):
    """Page n of the part (cache rows krow..), each part as soon as its
    buffer is free: its first e4m3 half into raw buffer 0 with its scales
    into scale slot n % 2 (free by then: warpgroup 2 dequantizes page n -
    1's second half before page n's first), its rope into rope slot n %
    2, its second half into raw buffer 1. With CLUSTER=2 the two CTAs
    split the boxes (CTA 0 the first half and the scales, CTA 1 the rope
    and the second half) and multicast them: every CTA still receives
    the whole page."""
    lo_bar = txl.get_buffer(raw_full, 0)
    txl.mbar_wait(txl.get_buffer(raw_empty, 0), (n & 1) ^ 1)
    txl.mbar_expect(lo_bar, PAGE * (DH + 4 * SCALES))
    if CLUSTER == 1:
        txl.tma_load(txl.get_buffer(raw, 0), kn_desc, [krow, 0], lo_bar)
        txl.tma_load(txl.get_buffer(k_scale, n % 2), ks_desc,
                     [krow, NOPE // 4], lo_bar)
    elif txl.cta_rank() == 0:
        txl.tma_load(txl.get_buffer(raw, 0), kn_desc, [krow, 0], lo_bar,
                     multicast=0b11)
        txl.tma_load(txl.get_buffer(k_scale, n % 2), ks_desc,
                     [krow, NOPE // 4], lo_bar, multicast=0b11)
    rope_bar = txl.get_buffer(rope_full, n % 2)
    txl.mbar_wait(txl.get_buffer(rope_empty, n % 2), ((n // 2) & 1) ^ 1)
    txl.mbar_expect(rope_bar, PAGE * 64 * 2)
    hi_bar = txl.get_buffer(raw_full, 1)
    if CLUSTER == 1:
        txl.tma_load(txl.get_buffer(k_rope, n % 2), kr_desc,
                     [krow, (NOPE + 4 * SCALES) // 2], rope_bar)
    elif txl.cta_rank() == 1:
        txl.tma_load(txl.get_buffer(k_rope, n % 2), kr_desc,
                     [krow, (NOPE + 4 * SCALES) // 2], rope_bar,
                     multicast=0b11)
    txl.mbar_wait(txl.get_buffer(raw_empty, 1), (n & 1) ^ 1)
    txl.mbar_expect(hi_bar, PAGE * DH)
    if CLUSTER == 1:
        txl.tma_load(txl.get_buffer(raw, 1), kn_desc, [krow, DH], hi_bar)
    elif txl.cta_rank() == 1:
        txl.tma_load(txl.get_buffer(raw, 1), kn_desc, [krow, DH], hi_bar,
                     multicast=0b11)


@txl.jit
def produce_queries(q_lo, q_hi, q_rope, q_full, q_empty, q_desc, qr_desc,
                    meta_ptr, part, M, m0):
    """Producer warp 0: the query tile of every entry of this part, each
    once warpgroup 1 is done with the previous one."""
    Q_TILE: tl.constexpr = 64 * (2 * DH + 64) * 2  # bf16
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    t = 0
    for bi in range(begin_b, end_b + 1):
        txl.mbar_wait(q_empty, (t & 1) ^ 1)
        txl.mbar_expect(q_full, Q_TILE)
        row = bi * M + m0
        txl.tma_load(q_lo, q_desc, [row, 0], q_full)
        txl.tma_load(q_hi, q_desc, [row, DH], q_full)
        txl.tma_load(q_rope, qr_desc, [row, 2 * DH], q_full)
        t += 1


@txl.jit
def prefetch_page(k_ptr, page, issue):
    """Asks L2 for a whole page (64 tokens x 656 contiguous bytes) with one
    bulk prefetch, from one thread (`issue`)."""
    txl.prefetch_l2(k_ptr + page.to(tl.int64) * (PAGE * TOKEN_BYTES),
                    PAGE * TOKEN_BYTES, pred=issue)


@txl.jit
def produce_pages(raw, k_rope, k_scale, raw_full, raw_empty, rope_full,
                  rope_empty, kn_desc, kr_desc, ks_desc, k_ptr, meta_ptr,
                  bt_ptr, bt_stride, seqlens_ptr, part,
                  CLUSTER: tl.constexpr, PREFETCH: tl.constexpr):
    """Producer warp 1: every page of this part (independent of the query
    tiles: warpgroup 2 dequantizes up to two pages ahead, across the ends
    of entries, and must not wait for a query tile that waits for
    warpgroup 1 to finish the entry, which waits for warpgroup 2). With
    PREFETCH > 0, page j + PREFETCH of the entry is also asked of L2 when
    page j is loaded: the raw buffers hold one page, so each load is
    issued only about one page ahead of its use, less than a load from
    DRAM takes under this traffic."""
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    issue = txl.tid(0) % 128 == 32  # lane 0 of this warp
    n = 0
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, PAGE)
        row = bt_ptr + bi * bt_stride
        if PREFETCH > 0:
            for f in tl.static_range(PREFETCH):
                if lo + f < hi:
                    prefetch_page(k_ptr, tl.load(row + lo + f), issue)
        for j in range(lo, hi):
            if PREFETCH > 0:
                if j + PREFETCH < hi:
                    prefetch_page(k_ptr, tl.load(row + j + PREFETCH), issue)
            page = tl.load(row + j)
            load_page_fp8(raw, k_rope, k_scale, raw_full, raw_empty,
                          rope_full, rope_empty, kn_desc, kr_desc, ks_desc,
                          page * PAGE, n, CLUSTER)
            n += 1


@txl.jit
def dequant_tile(src, dst, scales, tile: tl.constexpr, live,
                 CONVERT: tl.constexpr):
    """One scale tile of a page (`src`: its [64, 128] e4m3 channels) times
    the rows' scale `tile` (0 from row `live` on) into bf16 `dst`."""
    rows = txl.relayout(tl.arange(0, PAGE)[:, None] +
                        tl.zeros([PAGE, SCALES], tl.int32), [PAGE, SCALES],
                        SCALE_LAYOUT)
    sc4 = txl.frag_smem_load(scales, [PAGE, SCALES], SCALE_LAYOUT)
    # The row's scale of this tile times 2^120 in bf16, and 0 on the rows
    # past seqlen (whatever those slots hold: the dequantized rows are then
    # 0, never NaN).
    cols = tl.arange(0, SCALES)[None, :]
    sc = txl.warp_sum(tl.where((cols == tile) & (rows < live), sc4, 0.0), 1)
    sc = txl.relayout((sc * BIAS_SCALE).to(tl.bfloat16), [PAGE],
                      txl.SliceLayout(1, DEQ_LAYOUT))
    sc = tl.broadcast_to(sc[:, None], [PAGE, TILE])
    if CONVERT:
        x = txl.frag_smem_load(src, [PAGE, TILE], DEQ_LAYOUT)
        y = tl.inline_asm_elementwise(
            E4M3_TO_BF16, "=r,=r,r,r,r", [x.to(tl.uint8, bitcast=True), sc],
            dtype=tl.bfloat16, is_pure=True, pack=4)
    else:  # timing only: the stores without the conversion
        y = sc
    txl.frag_smem_store(dst, txl.relayout(y, [PAGE, TILE], DEQ_LAYOUT),
                        DEQ_LAYOUT)


@txl.jit
def dequant_half(raw, k_scale, deq, raw_full, raw_empty, d_full, d_empty, n,
                 h: tl.constexpr, j, seqlen, leader, CLUSTER: tl.constexpr,
                 CONVERT: tl.constexpr):
    """Warpgroup 2: half h (channels 256h..) of page n of the part (page j
    of an entry of `seqlen` tokens) from raw buffer h into dequantized
    slot (2n + h) % 3, once both have turned (the scales, in slot n % 2,
    came with the first half); then frees the raw buffer and publishes
    the slot."""
    k = 2 * n + h
    d = k % 3
    txl.mbar_wait(txl.get_buffer(raw_full, h), n & 1)
    txl.mbar_wait(txl.get_buffer(d_empty, d), ((k // 3) & 1) ^ 1)
    src = txl.get_buffer(raw, h)
    dst = txl.get_buffer(deq, d)
    scales = txl.get_buffer(k_scale, n % 2)
    live = seqlen - j * PAGE
    for c in tl.static_range(2):
        dequant_tile(txl.smem_slice(src, c * TILE, TILE, 1),
                     txl.smem_slice(dst, c * TILE, TILE, 1), scales,
                     2 * h + c, live, CONVERT)
    txl.fence_proxy_async()
    txl.bar_wait(DEQ_SYNC, 128)
    release_both(txl.get_buffer(raw_empty, h), leader, CLUSTER)
    txl.mbar_arrive(txl.get_buffer(d_full, d), pred=leader)


@txl.jit
def skip_empty(meta_ptr, seqlens_ptr, part, cb, cj, chi, cseq, end_b):
    """The cursor (entry cb, page cj of its [.., chi), length cseq) moved
    past the ends of entries to the next page there is (cj < chi), or to
    the end of the part (cj >= chi)."""
    while (cj >= chi) & (cb < end_b):
        cb += 1
        cj, chi, cseq, split = piece_bounds(meta_ptr, seqlens_ptr, part, cb,
                                            PAGE)
    return cb, cj, chi, cseq


@txl.jit
def scores_fp8(q_lo, q_hi, q_rope, deq, k_rope, rope_full, d_full, n):
    """S = Q K^T of page n: channels 0-255 from dequantized slot 2n % 3,
    256-511 from slot (2n + 1) % 3 (the second may still be in the works
    while the first's wgmmas run), then the rope from page slot n % 2."""
    lo = (2 * n) % 3
    hi = (2 * n + 1) % 3
    txl.mbar_wait(txl.get_buffer(d_full, lo), ((2 * n) // 3) & 1)
    S = tl.dot(q_lo, txl.get_buffer(deq, lo).T)
    txl.mbar_wait(txl.get_buffer(d_full, hi), ((2 * n + 1) // 3) & 1)
    S = tl.dot(q_hi, txl.get_buffer(deq, hi).T, S)
    txl.mbar_wait(txl.get_buffer(rope_full, n % 2), (n // 2) & 1)
    return tl.dot(q_rope, txl.get_buffer(k_rope, n % 2).T, S)


@txl.jit
def store_lse(lse_ptr, lse, base, m0, M, h_q, s_q, HM: tl.constexpr):
    """The LSE of rows m0.. (r = s * h_q + h) at base + h * s_q + s,
    stored from S's row layout (pinned: a coalesced store would move it
    through shared scratch, which this kernel has no room for)."""
    rows = txl.relayout(m0 + tl.arange(0, HM), [HM], S_ROWS)
    tl.store(lse_ptr + base + (rows % h_q) * s_q + rows // h_q,
             txl.relayout(lse, [HM], S_ROWS), mask=rows < M)


@txl.jit
def consume_s_fp8(q_lo, q_hi, q_rope, deq, k_rope, q_full, q_empty, rope_full,
                  rope_empty, d_full, d_empty, p_buf, scale_buf, o_ptr,
                  lse_ptr, oacc_ptr, lacc_ptr, meta_ptr, seqlens_ptr,
                  splits_ptr, part, M, m0, h_q, s_q, qk_scale,
                  HM: tl.constexpr, CAUSAL: tl.constexpr,
                  CLUSTER: tl.constexpr):
    """Warpgroup 1: scores, softmax, P, and the left half of O (mla.py's
    consume_s, one wgmma group at a time)."""
    s_rows = S_ROWS
    leader = txl.tid(0) % 128 == 0
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    rows = m0 + tl.arange(0, HM)
    n = 0
    t = 0
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, PAGE)
        if CAUSAL:
            limit = seqlen - s_q + rows // h_q
        else:
            limit = seqlen - 1 + rows * 0
        limit = txl.relayout(limit, [HM], s_rows)
        first_masked = (seqlen - s_q + 1) // PAGE if CAUSAL else \
            seqlen // PAGE
        txl.mbar_wait(q_full, t & 1)
        m_i = txl.relayout(tl.full([HM], float("-inf"), tl.float32), [HM],
                           s_rows)
        l_i = txl.relayout(tl.zeros([HM], dtype=tl.float32), [HM],
                           s_rows)
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        for j in range(lo, hi):
            S = scores_fp8(q_lo, q_hi, q_rope, deq, k_rope, rope_full, d_full,
                           n)
            txl.dot_wait(0)
            release_both(txl.get_buffer(rope_empty, n % 2), leader, CLUSTER)
            p, alpha, m_i, l_i = page_softmax(S, j, first_masked, limit,
                                              m_i, l_i, qk_scale, PAGE)
            p = p.to(tl.bfloat16)
            publish(p_buf, scale_buf, p, alpha)
            d = (2 * n) % 3
            alpha = txl.relayout(alpha, [HM], ROW_LAYOUT)
            acc = tl.dot(p, txl.get_buffer(deq, d), acc * alpha[:, None])
            txl.dot_wait(0)
            txl.mbar_arrive(txl.get_buffer(d_empty, d), pred=leader)
            n += 1
        txl.mbar_arrive(q_empty, pred=leader)
        t += 1
        seen = l_i > 0.0
        inv_l = tl.where(seen, tl.fdiv(1.0, l_i), 0.0)
        publish_scale(scale_buf, inv_l)
        lse = (m_i + tl.log2(l_i)) * 0.6931471805599453
        s0 = tl.load(splits_ptr + bi)
        n_split = tl.load(splits_ptr + bi + 1) - s0
        if n_split == 1:
            store_rows(o_ptr, lse_ptr, acc, inv_l, inv_l, bi * M, m0, M, h_q,
                       s_q, bi * M, 0, DH, HM, False)
            store_lse(lse_ptr, tl.where(seen, lse, float("inf")), bi * M, m0,
                      M, h_q, s_q, HM)
        else:
            slot = s0 + split
            store_rows(oacc_ptr, lacc_ptr, acc, inv_l, inv_l, slot * M, m0,
                       M, 1, M, slot * M, 0, DH, HM, False)
            store_lse(lacc_ptr, tl.where(seen, lse, float("-inf")), slot * M,
                      m0, M, M, 1, HM)


@txl.jit
def consume_o_fp8(raw, k_scale, deq, raw_full, raw_empty, d_full, d_empty,
                  p_buf, scale_buf, o_ptr, lse_ptr, oacc_ptr, lacc_ptr,
                  meta_ptr, seqlens_ptr, splits_ptr, part, M, m0,
                  HM: tl.constexpr, CLUSTER: tl.constexpr,
                  CONVERT: tl.constexpr):
    """Warpgroup 2: dequantizes ahead of warpgroup 1 (a cursor of its own
    over the part's pages, two pages ahead for channels 0-255, one ahead
    for 256-511) and accumulates the right half of O."""
    leader = txl.tid(0) % 128 == 0
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    # A part with no work has begin_b = batch > end_b (_mla_schedule.py):
    # its cursor starts on end_b, whose bounds there are empty (and the
    # seqlens read stays in bounds).
    first = tl.minimum(begin_b, end_b)
    cj, chi, cseq, split = piece_bounds(meta_ptr, seqlens_ptr, part, first,
                                        PAGE)
    cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part, first, cj,
                                   chi, cseq, end_b)
    # Page 0 whole, then page 1's first half. From then on the cursor
    # (cb, cj, chi, cseq) is on the page whose first half is next, and
    # (hj, hseq) on the page whose second half is next (if `has_hi`).
    hj = cj
    hseq = cseq
    has_hi = cj < 0
    if cj < chi:
        dequant_half(raw, k_scale, deq, raw_full, raw_empty, d_full,
                     d_empty, 0, 0, cj, cseq, leader, CLUSTER, CONVERT)
        dequant_half(raw, k_scale, deq, raw_full, raw_empty, d_full,
                     d_empty, 0, 1, cj, cseq, leader, CLUSTER, CONVERT)
        cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part, cb,
                                       cj + 1, chi, cseq, end_b)
        hj = cj
        hseq = cseq
        has_hi = cj < chi
        if cj < chi:
            dequant_half(raw, k_scale, deq, raw_full, raw_empty, d_full,
                         d_empty, 1, 0, cj, cseq, leader, CLUSTER, CONVERT)
            cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part, cb,
                                           cj + 1, chi, cseq, end_b)
    n = 0
    txl.bar_arrive(P_FREE, 256)  # the P buffer starts free
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, PAGE)
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        for j in range(lo, hi):
            txl.bar_wait(P_READY, 256)
            alpha = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
            acc = tl.dot(p_buf, txl.get_buffer(deq, (2 * n + 1) % 3),
                         acc * alpha[:, None])
            if has_hi:
                # Page n + 1's second half (into the slot of page n's
                # first, once warpgroup 1's P V has read it), under this
                # P V and warpgroup 1's next scores.
                dequant_half(raw, k_scale, deq, raw_full, raw_empty,
                             d_full, d_empty, n + 1, 1, hj, hseq, leader,
                             CLUSTER, CONVERT)
            hj = cj
            hseq = cseq
            has_hi = cj < chi
            txl.dot_wait(0)
            txl.bar_arrive(P_FREE, 256)
            txl.mbar_arrive(txl.get_buffer(d_empty, (2 * n + 1) % 3),
                            pred=leader)
            if cj < chi:
                # Page n + 2's first half, into the slot just freed.
                dequant_half(raw, k_scale, deq, raw_full, raw_empty,
                             d_full, d_empty, n + 2, 0, cj, cseq, leader,
                             CLUSTER, CONVERT)
                cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part,
                                               cb, cj + 1, chi, cseq, end_b)
            n += 1
        txl.bar_wait(P_READY, 256)
        inv_l = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
        txl.bar_arrive(P_FREE, 256)
        s0 = tl.load(splits_ptr + bi)
        n_split = tl.load(splits_ptr + bi + 1) - s0
        if n_split == 1:
            store_rows(o_ptr, lse_ptr, acc, inv_l, inv_l, bi * M, m0, M, 1,
                       1, 0, DH, DH, HM, False)
        else:
            slot = s0 + split
            store_rows(oacc_ptr, lacc_ptr, acc, inv_l, inv_l, slot * M, m0,
                       M, 1, M, 0, DH, DH, HM, False)


@txl.jit
def mla_decode_fp8(q_desc, qr_desc, kn_desc, kr_desc, ks_desc, k_ptr, o_ptr,
                   lse_ptr, oacc_ptr, lacc_ptr, meta_ptr, bt_ptr, bt_stride,
                   seqlens_ptr, splits_ptr, M, h_q, s_q, qk_scale,
                   CAUSAL: tl.constexpr, CLUSTER: tl.constexpr = 1,
                   CONVERT: tl.constexpr = True,
                   PREFETCH: tl.constexpr = 4):
    """Grid: (cdiv(M, 64), parts), as mla_decode. q rows are [batch * M,
    576] bf16; the cache is [pages * 64, 656] bytes, read through three
    descriptors: kn_desc its e4m3 view ([64, 256] boxes), kr_desc its bf16
    view ([64, 64] at column 264, the rope), ks_desc its fp32 view ([64,
    4] at column 128, the scales); k_ptr is the cache's first byte (for
    the L2 prefetches: PREFETCH pages ahead, 0 = none). out [batch * M,
    512] bf16, lse, the fp32 scratch: as mla_decode. CONVERT=False skips
    the e4m3 -> bf16 arithmetic (wrong results: for timing what the rest
    costs)."""
    HM: tl.constexpr = 64
    dt = q_desc.dtype
    f8 = kn_desc.dtype
    tile = tl.program_id(0) * CLUSTER
    if CLUSTER == 2:
        tile += txl.cta_rank()
    m0 = tile * HM
    part = tl.program_id(1)
    q_lo = txl.get_buffer(txl.smem_alloc([HM, DH], dtype=dt), 0)
    q_hi = txl.get_buffer(txl.smem_alloc([HM, DH], dtype=dt), 0)
    q_rope = txl.get_buffer(txl.smem_alloc([HM, 64], dtype=dt), 0)
    raw = txl.smem_alloc([PAGE, DH], dtype=f8, num_stages=2)
    k_rope = txl.smem_alloc([PAGE, 64], dtype=dt, num_stages=2)
    k_scale = txl.smem_alloc([PAGE, SCALES], dtype=tl.float32, num_stages=2)
    deq = txl.smem_alloc([PAGE, DH], dtype=dt, num_stages=3)
    p_buf = txl.get_buffer(txl.smem_alloc([HM, PAGE], dtype=dt), 0)
    scale_buf = txl.get_buffer(txl.smem_alloc([HM], dtype=tl.float32), 0)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    q_empty = txl.get_buffer(txl.mbar_alloc(1), 0)
    # Raw buffer h: channels 256h.. of the next page (buffer 0 with the
    # page's scales), freed by warpgroup 2 (of each CTA the buffer is
    # filled by) once dequantized.
    raw_full = txl.mbar_alloc(1, num_stages=2)
    raw_empty = txl.mbar_alloc(CLUSTER, num_stages=2)
    # Rope slot, freed by warpgroup 1 (scores retired) of each CTA.
    rope_full = txl.mbar_alloc(1, num_stages=2)
    rope_empty = txl.mbar_alloc(CLUSTER, num_stages=2)
    # Dequantized slot: published by warpgroup 2, freed by the consumer
    # whose P V reads it.
    d_full = txl.mbar_alloc(1, num_stages=3)
    d_empty = txl.mbar_alloc(1, num_stages=3)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        if txl.is_warp([0]):
            produce_queries(q_lo, q_hi, q_rope, q_full, q_empty, q_desc,
                            qr_desc, meta_ptr, part, M, m0)
        if txl.is_warp([1]):
            produce_pages(raw, k_rope, k_scale, raw_full, raw_empty,
                          rope_full, rope_empty, kn_desc, kr_desc, ks_desc,
                          k_ptr, meta_ptr, bt_ptr, bt_stride, seqlens_ptr,
                          part, CLUSTER, PREFETCH)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(240)
        consume_s_fp8(q_lo, q_hi, q_rope, deq, k_rope, q_full, q_empty,
                      rope_full, rope_empty, d_full, d_empty, p_buf, scale_buf,
                      o_ptr, lse_ptr, oacc_ptr, lacc_ptr, meta_ptr,
                      seqlens_ptr, splits_ptr, part, M, m0, h_q, s_q,
                      qk_scale, HM, CAUSAL, CLUSTER)
        txl.bar_wait(P_FREE, 256)  # warpgroup 2's last arrival
    if txl.is_warpgroup([2]):
        txl.reg_alloc(240)
        consume_o_fp8(raw, k_scale, deq, raw_full, raw_empty, d_full,
                      d_empty, p_buf, scale_buf, o_ptr, lse_ptr, oacc_ptr,
                      lacc_ptr, meta_ptr, seqlens_ptr, splits_ptr, part, M,
                      m0, HM, CLUSTER, CONVERT)
