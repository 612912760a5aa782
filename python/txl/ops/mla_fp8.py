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
bf16, the tiles are dequantized to bf16 in shared memory and both GEMMs
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
by far. Slots past seqlen get scale 0 (whatever their bytes), so the
ragged last page needs no separate zeroing: the dequantized rows are 0
and their scores are masked as in mla_decode.

The schedule (one CTA = 64 query rows x one run of steps of BN = 32
tokens; three warpgroups):

- warpgroup 0, the producer: the query tile of each entry (bf16, as in
  mla_decode), then each step's raw bytes into a STAGES-deep ring: the
  e4m3 channels as two [32, 256] boxes, the rope as a bf16 [32, 64] box
  and the scales as an fp32 [32, 4] box, all through TMA from three
  descriptors over the same cache bytes. A stage is 20.5 KB.
- warpgroup 2 dequantizes. The bf16 tiles go to two "dequantized sets"
  (32 x 512 bf16, 32 KB each; set it % 2 holds step it), and warpgroup 2
  works one step ahead: before it accumulates its half of P V of step it
  it dequantizes step it + 1 into the other set, while warpgroup 1 is
  busy with S and the softmax of step it. A set is `deq_full` once its
  writes are fenced for the async proxy and all of warpgroup 2 has
  passed named barrier DEQ_SYNC, and `deq_empty` once warpgroup 1's
  P V of that step has retired (warpgroup 2's own P V retires before it
  moves on).
- warpgroup 1: S = Q K^T over the dequantized set (512 channels) and the
  stage's rope (64), the masks and online softmax of mla_decode, P and
  alpha to warpgroup 2, O[:, :256] += P V[:, :256] from the set.

A stage is freed by two arrivals: warpgroup 2 once it is dequantized,
warpgroup 1 once its scores (which read the rope) have retired. Shared
memory: the 72 KB query tile, the two 32 KB sets, four 20.5 KB stages and
the 4 KB P: 229376 bytes.

Why half pages: a whole-page step needs 64 KB sets, and the query tile
leaves room for one, not two; with one set the dequantization sits on
warpgroup 1's chain (dequantize, S, softmax, P V) instead of beside it.
(A one-set page schedule with both consumers dequantizing their V half
also needs the [64, 4] scale tile in registers, which the layout pass
moves through shared scratch, 1.4 KB past the 227 KB.)

Measured (H100, b=132, s_q=1, s_k=32768, h_q=128, bench_mla.py --ab fp8,
commit 823c920): 3.84 ms against the bf16 decode's 2.04 ms in the same
run (1.88x), 4.1x its own KV-read floor of 0.94 ms. The same kernel without the
e4m3 arithmetic (CONVERT=False) takes 2.99 ms, and the bf16 kernel on
half-page steps 2.80 ms: the half-page schedule costs 0.8 ms (S's 36
wgmmas are n32, so the 72 KB query tile is read from shared memory once
per 32 tokens instead of 64, and each step pays the softmax and the
hand-overs), and the conversion 0.85 ms that the schedule does not hide.
Three stages instead of four: 3.77 ms; clusters of two: 3.87 ms. So this
kernel halves the cache's memory and bytes read, not the time; FlashMLA's
fp8 kernels are dequantization-bound as well (its sparse decode splits the
dequantization between the two CTAs of a cluster through distributed
shared memory).

Named barriers: mla.py's 8 and 9 (the P hand-over), 12 (warpgroup 2
alone: its dequantized tiles are written).
"""
import triton.language as tl
import txl

from .mla import (PAGE, P_FREE, P_READY, ROW_LAYOUT, page_softmax,
                  piece_bounds, publish, publish_scale, pv_left, release,
                  store_rows)

NOPE = 512       # quantized channels a token (also V)
TILE = 128       # channels per scale
SCALES = NOPE // TILE
DEQ_SYNC = 12    # named barrier of warpgroup 2 alone
# 2^120: bf16's exponent bias minus e4m3's (see E4M3_TO_BF16).
BIAS_SCALE = 1.329227995784916e+36
# The dequantization's layout: a [BN, 256] half of a step, 8 channels a
# thread (8 bytes of e4m3 read, 16 bytes of bf16 written: one swizzle
# unit), a row a warp. It is also the layout the layout pass gives this
# kernel's unpinned rank-2 values (its stores'), and at BN = 32 a [BN, 4]
# tensor in it stays within 64 registers, so the scale selection and row
# masks around it (small [BN, 4] and [BN] tensors) never move through
# shared memory.
DEQ_LAYOUT = txl.BlockedLayout([1, 8], [1, 32], [4, 1], [1, 0])
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
def load_step_fp8(k8_lo, k8_hi, k_rope, k_scale, bar, kn_desc, kr_desc,
                  ks_desc, krow, CLUSTER: tl.constexpr):
    """One step's bytes (cache rows krow..) into a stage: e4m3 channels
    0-255 and 256-511, the rope (bf16 column 264 = byte 528) and the
    scales (fp32 column 128 = byte 512). With CLUSTER=2 the two CTAs
    split the boxes and multicast them, as mla.load_page."""
    if CLUSTER == 1:
        txl.tma_load(k8_lo, kn_desc, [krow, 0], bar)
        txl.tma_load(k8_hi, kn_desc, [krow, NOPE // 2], bar)
        txl.tma_load(k_rope, kr_desc, [krow, (NOPE + 4 * SCALES) // 2], bar)
        txl.tma_load(k_scale, ks_desc, [krow, NOPE // 4], bar)
    elif txl.cta_rank() == 0:
        txl.tma_load(k8_lo, kn_desc, [krow, 0], bar, multicast=0b11)
        txl.tma_load(k_scale, ks_desc, [krow, NOPE // 4], bar,
                     multicast=0b11)
    else:
        txl.tma_load(k8_hi, kn_desc, [krow, NOPE // 2], bar, multicast=0b11)
        txl.tma_load(k_rope, kr_desc, [krow, (NOPE + 4 * SCALES) // 2], bar,
                     multicast=0b11)


@txl.jit
def produce_fp8(q_lo, q_hi, q_rope, k8_lo, k8_hi, k_rope, k_scale, q_full,
                q_empty, k_full, k_empty, q_desc, qr_desc, kn_desc, kr_desc,
                ks_desc, meta_ptr, bt_ptr, bt_stride, seqlens_ptr, part, M,
                m0, BN: tl.constexpr, DH: tl.constexpr,
                STAGES: tl.constexpr, CLUSTER: tl.constexpr):
    """Every piece of this part: the query tile, then its steps."""
    Q_TILE: tl.constexpr = 64 * (2 * DH + 64) * 2  # bf16
    STEP: tl.constexpr = BN * (NOPE + 4 * SCALES + 64 * 2)
    R: tl.constexpr = PAGE // BN
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
        for j in range(lo, hi):
            page = tl.load(bt_ptr + bi * bt_stride + j // R)
            s = it % STAGES
            txl.mbar_wait(txl.get_buffer(k_empty, s),
                          ((it // STAGES) & 1) ^ 1)
            bar = txl.get_buffer(k_full, s)
            txl.mbar_expect(bar, STEP)
            load_step_fp8(txl.get_buffer(k8_lo, s), txl.get_buffer(k8_hi, s),
                          txl.get_buffer(k_rope, s),
                          txl.get_buffer(k_scale, s), bar, kn_desc, kr_desc,
                          ks_desc, page * PAGE + (j % R) * BN, CLUSTER)
            it += 1


@txl.jit
def dequant_half(src, dst, sc4, h: tl.constexpr, BN: tl.constexpr,
                 CONVERT: tl.constexpr):
    """Half h (channels 256h..) of a step: e4m3 `src` [BN, 256] times the
    rows' scales 2h and 2h + 1 (of `sc4`: the [BN, 4] scales times 2^120,
    0 on dead rows) into bf16 `dst` [BN, 256]."""
    # The two scales of each row, in bf16 once per row (all four are in
    # the thread: the sums stay in its registers); each channel then
    # picks one by its tile.
    cols = tl.arange(0, SCALES)[None, :]
    s0 = txl.warp_sum(tl.where(cols == 2 * h, sc4, 0.0), 1).to(tl.bfloat16)
    s1 = txl.warp_sum(tl.where(cols == 2 * h + 1, sc4, 0.0),
                      1).to(tl.bfloat16)
    second = tl.arange(0, 2 * TILE)[None, :] >= TILE
    sc = tl.where(second, s1[:, None], s0[:, None])
    if CONVERT:
        x = txl.frag_smem_load(src, [BN, 2 * TILE], DEQ_LAYOUT)
        y = tl.inline_asm_elementwise(
            E4M3_TO_BF16, "=r,=r,r,r,r", [x.to(tl.uint8, bitcast=True), sc],
            dtype=tl.bfloat16, is_pure=True, pack=4)
    else:  # timing only: the stores without the conversion
        y = tl.broadcast_to(sc, [BN, 2 * TILE])
    txl.frag_smem_store(dst, txl.relayout(y, [BN, 2 * TILE], DEQ_LAYOUT),
                        DEQ_LAYOUT)


@txl.jit
def dequant_step(k8_lo, k8_hi, k_scale, k_full, k_empty, deq_lo, deq_hi,
                 deq_full, deq_empty, it, j, seqlen, leader,
                 BN: tl.constexpr, STAGES: tl.constexpr,
                 CLUSTER: tl.constexpr, CONVERT: tl.constexpr):
    """Warpgroup 2: step `it` (step j of an entry of `seqlen` tokens) from
    its stage into dequantized set it % 2, once both have turned; then
    frees the stage and publishes the set."""
    s = it % STAGES
    d = it % 2
    txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
    txl.mbar_wait(txl.get_buffer(deq_empty, d), ((it // 2) & 1) ^ 1)
    # The rows' scales times 2^120, 0 past seqlen (whatever those slots
    # hold: the dequantized rows are then 0, never NaN).
    rows = txl.relayout(tl.arange(0, BN)[:, None] +
                        tl.zeros([BN, SCALES], tl.int32), [BN, SCALES],
                        DEQ_LAYOUT)
    sc4 = txl.frag_smem_load(txl.get_buffer(k_scale, s), [BN, SCALES],
                             DEQ_LAYOUT)
    sc4 = tl.where(rows < seqlen - j * BN, sc4 * BIAS_SCALE, 0.0)
    dequant_half(txl.get_buffer(k8_lo, s), txl.get_buffer(deq_lo, d), sc4,
                 0, BN, CONVERT)
    dequant_half(txl.get_buffer(k8_hi, s), txl.get_buffer(deq_hi, d), sc4,
                 1, BN, CONVERT)
    txl.fence_proxy_async()
    txl.bar_wait(DEQ_SYNC, 128)
    release(k_empty, it, leader, STAGES, CLUSTER)
    txl.mbar_arrive(txl.get_buffer(deq_full, d), pred=leader)


@txl.jit
def skip_empty(meta_ptr, seqlens_ptr, part, cb, cj, chi, cseq, end_b,
               BN: tl.constexpr):
    """The cursor (entry cb, step cj of its [.., chi), length cseq) moved
    past the ends of entries to the next step there is (cj < chi), or to
    the end of the part (cj >= chi)."""
    while (cj >= chi) & (cb < end_b):
        cb += 1
        cj, chi, cseq, split = piece_bounds(meta_ptr, seqlens_ptr, part, cb,
                                            BN)
    return cb, cj, chi, cseq


@txl.jit
def scores_fp8(q_lo, q_hi, q_rope, deq_lo, deq_hi, k_rope, k_full,
               deq_full, it, STAGES: tl.constexpr):
    """S = Q K^T: the 512 dequantized channels of set it % 2, then the
    rope from the stage (three chained wgmmas)."""
    s = it % STAGES
    d = it % 2
    txl.mbar_wait(txl.get_buffer(k_full, s), (it // STAGES) & 1)
    txl.mbar_wait(txl.get_buffer(deq_full, d), (it // 2) & 1)
    S = tl.dot(q_lo, txl.get_buffer(deq_lo, d).T)
    S = tl.dot(q_hi, txl.get_buffer(deq_hi, d).T, S)
    return tl.dot(q_rope, txl.get_buffer(k_rope, s).T, S)


@txl.jit
def consume_s_fp8(q_lo, q_hi, q_rope, deq_lo, deq_hi, k_rope, q_full,
                  q_empty, k_full, k_empty, deq_full, deq_empty, p_buf,
                  scale_buf, o_ptr, lse_ptr, oacc_ptr, lacc_ptr, meta_ptr,
                  seqlens_ptr, splits_ptr, part, M, m0, h_q, s_q, qk_scale,
                  BN: tl.constexpr, DH: tl.constexpr, HM: tl.constexpr,
                  STAGES: tl.constexpr, CAUSAL: tl.constexpr,
                  CLUSTER: tl.constexpr):
    """Warpgroup 1: scores, softmax, P, and the left half of O (mla.py's
    consume_s, one wgmma group at a time)."""
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
        for j in range(lo, hi):
            S = scores_fp8(q_lo, q_hi, q_rope, deq_lo, deq_hi, k_rope,
                           k_full, deq_full, it, STAGES)
            txl.dot_wait(0)
            release(k_empty, it, leader, STAGES, CLUSTER)
            p, alpha, m_i, l_i = page_softmax(S, j, first_masked, limit,
                                              m_i, l_i, qk_scale, BN)
            p = p.to(tl.bfloat16)
            publish(p_buf, scale_buf, p, alpha)
            acc = pv_left(acc, p, alpha, deq_lo, it, HM, 2)
            txl.dot_wait(0)
            txl.mbar_arrive(txl.get_buffer(deq_empty, it % 2), pred=leader)
            it += 1
        txl.mbar_arrive(q_empty, pred=leader)
        t += 1
        seen = l_i > 0.0
        inv_l = tl.where(seen, tl.fdiv(1.0, l_i), 0.0)
        publish_scale(scale_buf, inv_l)
        lse = (m_i + tl.log2(l_i)) * 0.6931471805599453
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
def consume_o_fp8(k8_lo, k8_hi, k_scale, deq_lo, deq_hi, k_full, k_empty,
                  deq_full, deq_empty, p_buf, scale_buf, o_ptr, lse_ptr,
                  oacc_ptr, lacc_ptr, meta_ptr, seqlens_ptr, splits_ptr,
                  part, M, m0, BN: tl.constexpr, DH: tl.constexpr,
                  HM: tl.constexpr, STAGES: tl.constexpr,
                  CLUSTER: tl.constexpr, CONVERT: tl.constexpr):
    """Warpgroup 2: dequantizes one step ahead (a cursor of its own over
    the part's steps) and accumulates the right half of O."""
    leader = txl.tid(0) % 128 == 0
    begin_b = tl.load(meta_ptr + part * 8)
    end_b = tl.load(meta_ptr + part * 8 + 2)
    # A part with no work has begin_b = batch > end_b (_mla_schedule.py):
    # its cursor starts on end_b, whose bounds there are empty (and the
    # seqlens read stays in bounds).
    first = tl.minimum(begin_b, end_b)
    cj, chi, cseq, split = piece_bounds(meta_ptr, seqlens_ptr, part, first,
                                        BN)
    cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part, first, cj,
                                   chi, cseq, end_b, BN)
    dq = 0  # steps dequantized
    if cj < chi:
        dequant_step(k8_lo, k8_hi, k_scale, k_full, k_empty, deq_lo, deq_hi,
                     deq_full, deq_empty, dq, cj, cseq, leader, BN, STAGES,
                     CLUSTER, CONVERT)
        dq += 1
        cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part, cb,
                                       cj + 1, chi, cseq, end_b, BN)
    it = 0
    txl.bar_arrive(P_FREE, 256)  # the P buffer starts free
    for bi in range(begin_b, end_b + 1):
        lo, hi, seqlen, split = piece_bounds(meta_ptr, seqlens_ptr,
                                             part, bi, BN)
        acc = tl.zeros([HM, DH], dtype=tl.float32)
        for j in range(lo, hi):
            if cj < chi:
                # Step it + 1, while warpgroup 1 computes step it's S.
                dequant_step(k8_lo, k8_hi, k_scale, k_full, k_empty, deq_lo,
                             deq_hi, deq_full, deq_empty, dq, cj, cseq,
                             leader, BN, STAGES, CLUSTER, CONVERT)
                dq += 1
                cb, cj, chi, cseq = skip_empty(meta_ptr, seqlens_ptr, part,
                                               cb, cj + 1, chi, cseq, end_b,
                                               BN)
            txl.bar_wait(P_READY, 256)
            alpha = txl.frag_smem_load(scale_buf, [HM], ROW_LAYOUT)
            acc = tl.dot(p_buf, txl.get_buffer(deq_hi, it % 2),
                         acc * alpha[:, None])
            txl.dot_wait(0)
            txl.bar_arrive(P_FREE, 256)
            it += 1
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
def mla_decode_fp8(q_desc, qr_desc, kn_desc, kr_desc, ks_desc, o_ptr,
                   lse_ptr, oacc_ptr, lacc_ptr, meta_ptr, bt_ptr, bt_stride,
                   seqlens_ptr, splits_ptr, M, h_q, s_q, qk_scale,
                   STAGES: tl.constexpr, CAUSAL: tl.constexpr,
                   CLUSTER: tl.constexpr = 1, BN: tl.constexpr = 32,
                   CONVERT: tl.constexpr = True):
    """Grid: (cdiv(M, 64), parts), as mla_decode. q rows are [batch * M,
    576] bf16; the cache is [pages * 64, 656] bytes, read through three
    descriptors: kn_desc its e4m3 view ([BN, 256] boxes), kr_desc its bf16
    view ([BN, 64] at column 264, the rope), ks_desc its fp32 view ([BN,
    4] at column 128, the scales). out [batch * M, 512] bf16, lse, the
    fp32 scratch: as mla_decode. CONVERT=False skips the e4m3 -> bf16
    arithmetic (wrong results: for timing what the rest costs)."""
    HM: tl.constexpr = 64
    DH: tl.constexpr = 256
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
    k8_lo = txl.smem_alloc([BN, DH], dtype=f8, num_stages=STAGES)
    k8_hi = txl.smem_alloc([BN, DH], dtype=f8, num_stages=STAGES)
    k_rope = txl.smem_alloc([BN, 64], dtype=dt, num_stages=STAGES)
    k_scale = txl.smem_alloc([BN, SCALES], dtype=tl.float32,
                             num_stages=STAGES)
    deq_lo = txl.smem_alloc([BN, DH], dtype=dt, num_stages=2)
    deq_hi = txl.smem_alloc([BN, DH], dtype=dt, num_stages=2)
    p_buf = txl.get_buffer(txl.smem_alloc([HM, BN], dtype=dt), 0)
    scale_buf = txl.get_buffer(txl.smem_alloc([HM], dtype=tl.float32), 0)
    q_full = txl.get_buffer(txl.mbar_alloc(1), 0)
    q_empty = txl.get_buffer(txl.mbar_alloc(1), 0)
    k_full = txl.mbar_alloc(1, num_stages=STAGES)
    # Warpgroup 2 (dequantized) and warpgroup 1 (scores retired), in each
    # CTA the stage is filled by.
    k_empty = txl.mbar_alloc(2 * CLUSTER, num_stages=STAGES)
    deq_full = txl.mbar_alloc(1, num_stages=2)
    deq_empty = txl.mbar_alloc(1, num_stages=2)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(24)
        produce_fp8(q_lo, q_hi, q_rope, k8_lo, k8_hi, k_rope, k_scale,
                    q_full, q_empty, k_full, k_empty, q_desc, qr_desc,
                    kn_desc, kr_desc, ks_desc, meta_ptr, bt_ptr, bt_stride,
                    seqlens_ptr, part, M, m0, BN, DH, STAGES, CLUSTER)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(240)
        consume_s_fp8(q_lo, q_hi, q_rope, deq_lo, deq_hi, k_rope, q_full,
                      q_empty, k_full, k_empty, deq_full, deq_empty, p_buf,
                      scale_buf, o_ptr, lse_ptr, oacc_ptr, lacc_ptr,
                      meta_ptr, seqlens_ptr, splits_ptr, part, M, m0, h_q,
                      s_q, qk_scale, BN, DH, HM, STAGES, CAUSAL, CLUSTER)
        txl.bar_wait(P_FREE, 256)  # warpgroup 2's last arrival
    if txl.is_warpgroup([2]):
        txl.reg_alloc(240)
        consume_o_fp8(k8_lo, k8_hi, k_scale, deq_lo, deq_hi, k_full,
                      k_empty, deq_full, deq_empty, p_buf, scale_buf, o_ptr,
                      lse_ptr, oacc_ptr, lacc_ptr, meta_ptr, seqlens_ptr,
                      splits_ptr, part, M, m0, BN, DH, HM, STAGES, CLUSTER,
                      CONVERT)
