"""Host side of MLA decoding (kernels in mla.py): FlashMLA's interface.

    meta, splits = txl.ops.get_mla_metadata(cache_seqlens, s_q * h_q, 1)
    out, lse = txl.ops.flash_mla_with_kvcache(q, k_cache, block_table,
                                              cache_seqlens, 512, meta,
                                              splits, causal=True)

The scheduler (get_mla_metadata) cuts the batch's pages into one run per
part, balancing the runs' costs: a page costs 1, and every piece of a
batch entry (each start of the query tile, each epilogue, each merge)
costs PIECE_COST pages more, so many short entries and few long ones
weigh the same. A part is one column of CTAs (one per 64 query rows);
there are as many parts as fit on the SMs once.

An fp8 cache (FlashMLA's "FP8 with scale" format, 656 bytes a token:
512 e4m3 + 4 fp32 scales, one per 128 channels, + 64 bf16 rope; see
mla_fp8.py) is read by mla_decode_fp8 with the same metadata:

    k8 = txl.ops.quantize_mla_kv_cache(k_cache)    # [blocks, 64, 1, 656]
    out, lse = txl.ops.flash_mla_with_kvcache(q, k8, block_table,
                                              cache_seqlens, 512, meta,
                                              splits, is_fp8_kvcache=True)
"""
import math

import torch

from . import mla as _kernels
from . import mla_fp8 as _fp8_kernels
from ._mla_schedule import PAGE, PIECE_COST, schedule as _schedule

HEAD_DIM = 576     # K channels: 512 "nope" (also V) + 64 "rope"
HEAD_DIM_V = 512
ROWS_PER_CTA = 64  # query rows (heads x tokens) of one CTA
META_FIELDS = 8    # begin entry, begin page, end entry, end page (excl.),
                   # the first piece's index within its entry, 3 unused
# The kernels' schedules: BN tokens of K per stage, STAGES stages (all the
# shared memory the 72 KB query tile leaves), and how warpgroup 1 orders
# its wgmmas: 0 one group at a time; 1 step j's scores under step j-1's
# P V (FA3's overlap: it holds two stages at once, so it needs the smaller
# stages to keep loads ahead); 2 (decode only) step j+1's scores issued
# right behind step j's P V.
SCHEDULES = {
    "page": dict(BN=64, STAGES=2, OVERLAP=0),
    "page-early": dict(BN=64, STAGES=2, OVERLAP=2),
    "half": dict(BN=32, STAGES=4, OVERLAP=0),
    "half-overlap": dict(BN=32, STAGES=4, OVERLAP=1),
    # Sparse only: two query stages, so a token's query tile loads under
    # the previous token's last steps (the shared memory they take leaves
    # two K stages).
    "half-q2": dict(BN=32, STAGES=2, OVERLAP=0, Q_STAGES=2),
    "half-overlap-q2": dict(BN=32, STAGES=2, OVERLAP=1, Q_STAGES=2),
}
# The pair schedules are a kernel of their own (mla_sparse_pair): 64-row
# blocks taken two at a time, one per consumer warpgroup; cp.async gathers
# only. "pair" stores the output through shared memory by TMA (where h_q
# is a multiple of 64), "pair-regs" straight from the accumulators.
PAIR_SCHEDULES = {"pair": dict(TMA_STORE=True),
                  "pair-regs": dict(TMA_STORE=False)}
SPARSE_SCHEDULES = ("page", "half", "half-overlap", "half-q2",
                    "half-overlap-q2", "pair", "pair-regs")
SPARSE_ONLY_SCHEDULES = ("half-q2", "half-overlap-q2")
DECODE_SCHEDULE = "page"
# Options of the decode kernel (bench_mla.py --ab parts times them; H100,
# b=132, s_q=1, s_k=32768, h_q=128, one process, session 14, mean of two):
# - RELOAD_Q: Q's wgmma descriptors made in the loop (mla.page_scores;
#   held, they spill): 2.187 ms against 2.283 / 2.359 without (the
#   default then, timed twice);
# - PREFETCH: pages asked of L2 ahead of their loads by one bulk prefetch
#   each: 4 ahead, 2.731 ms (slower: the prefetches seem to queue in the
#   TMA unit ahead of the loads);
# - LEAN_PUBLISH: warpgroup 1 hands P and alpha over without smem_store's
#   warpgroup barriers (mla.publish): 2.274 ms, within noise;
# - EARLY_ALPHA: alpha sent ahead of P (mla.early_alpha_step): 2.273 ms,
#   with LEAN_PUBLISH 2.384 (no gain: ptxas still sinks warpgroup 2's
#   rescale below its wait for P).
DECODE_RELOAD_Q = True
DECODE_PREFETCH = 0
DECODE_LEAN_PUBLISH = False
DECODE_EARLY_ALPHA = False
# The pair schedule at every top-k (H100, s_q = s_kv = 16384, h_q = 128,
# session 12, bench/bench_mla_sparse_ab.py, one process): topk 128 in
# 2.23 ms (262 TFLOP/s; "pair-regs" 3.48, "half-q2" 3.98), topk 2048 in
# 18.4 ms (508 TFLOP/s; "pair-regs" 19.1, "half" 27.96).
SPARSE_SCHEDULE = "pair"
SHORT_TOPK_SCHEDULE = "pair"
SHORT_TOPK = 128
# How the sparse kernel gathers its rows: "cp.async" (16-byte copies over
# the producer warpgroup) or "tma" (one TMA copy per row and 128-byte
# chunk: sm_90 has no gather instruction, and that many copies issue too
# slowly).
SPARSE_GATHERS = ("cp.async", "tma")
SPARSE_GATHER = "cp.async"
# The fp8 cache: bytes a token (512 e4m3, 4 fp32 scales, 64 bf16).
FP8_TOKEN_BYTES = 656
FP8_SCALE_TILE = 128  # channels per scale
COMBINE_ROWS = 8   # rows per program of the combine kernel
DEFAULT_CLUSTER = 1  # query tiles per cluster sharing each page's load


def _num_sms(device):
    return torch.cuda.get_device_properties(device).multi_processor_count


def get_mla_metadata(cache_seqlens, num_q_tokens_per_head_k, num_heads_k,
                     num_heads_q=None, is_fp8_kvcache=False, topk=None):
    """(tile_scheduler_metadata [parts, 8] int32, num_splits [batch + 1]
    int32) for flash_mla_with_kvcache, FlashMLA's signature:
    num_q_tokens_per_head_k = s_q * h_q // h_kv. Reads cache_seqlens on
    the host (one synchronization; call it once per decoding step).
    num_heads_q and is_fp8_kvcache (FlashMLA's newer signature) do not
    change the schedule; topk (sparse decoding) is not implemented."""
    if topk is not None:
        raise NotImplementedError("get_mla_metadata: topk (sparse "
                                  "decoding) is not implemented")
    if cache_seqlens.dim() != 1 or cache_seqlens.dtype != torch.int32:
        raise ValueError("get_mla_metadata: cache_seqlens must be a 1-D "
                         "int32 tensor")
    if num_heads_k != 1:
        raise NotImplementedError(
            f"get_mla_metadata: num_heads_k={num_heads_k} (MLA has one KV "
            "head)")
    device = cache_seqlens.device
    m_tiles = math.ceil(num_q_tokens_per_head_k / ROWS_PER_CTA)
    num_parts = max(1, _num_sms(device) // (num_heads_k * m_tiles))
    lens = cache_seqlens.tolist()
    if min(lens, default=0) < 0:
        raise ValueError("get_mla_metadata: negative cache_seqlens")
    meta, splits = _schedule([-(-n // PAGE) for n in lens], num_parts)
    return (torch.tensor(meta, dtype=torch.int32, device=device),
            torch.tensor(splits, dtype=torch.int32, device=device))


def _check(q, k_cache, block_table, cache_seqlens, head_dim_v, meta,
           splits, fp8=False):
    if q.dim() != 4 or q.shape[-1] != HEAD_DIM:
        raise ValueError(f"flash_mla_with_kvcache: q must be [batch, s_q, "
                         f"h_q, {HEAD_DIM}], got {tuple(q.shape)}")
    width = FP8_TOKEN_BYTES if fp8 else HEAD_DIM
    if k_cache.dim() != 4 or tuple(k_cache.shape[1:]) != (PAGE, 1, width):
        raise ValueError(
            f"flash_mla_with_kvcache: k_cache must be [num_blocks, {PAGE}, "
            f"1, {width}]{' (fp8: 656 bytes a token)' if fp8 else ''}, got "
            f"{tuple(k_cache.shape)}")
    if head_dim_v != HEAD_DIM_V:
        raise NotImplementedError(
            f"flash_mla_with_kvcache: head_dim_v={head_dim_v} (512 only)")
    if fp8:
        if q.dtype != torch.bfloat16 or k_cache.dtype not in (
                torch.float8_e4m3fn, torch.uint8):
            raise NotImplementedError(
                "flash_mla_with_kvcache: an fp8 cache takes bf16 q and a "
                "float8_e4m3fn (or uint8) k_cache, got "
                f"{q.dtype} and {k_cache.dtype}")
    elif q.dtype not in (torch.float16, torch.bfloat16) or \
            k_cache.dtype != q.dtype:
        raise NotImplementedError(
            "flash_mla_with_kvcache: q and k_cache must both be fp16 or "
            f"both bf16, got {q.dtype} and {k_cache.dtype} (an fp8 cache "
            "takes is_fp8_kvcache=True)")
    B = q.shape[0]
    if block_table.dtype != torch.int32 or block_table.dim() != 2 or \
            block_table.shape[0] != B:
        raise ValueError("flash_mla_with_kvcache: block_table must be "
                         "[batch, max_blocks] int32")
    if cache_seqlens.dtype != torch.int32 or tuple(
            cache_seqlens.shape) != (B,):
        raise ValueError("flash_mla_with_kvcache: cache_seqlens must be "
                         "[batch] int32")
    if meta.dtype != torch.int32 or meta.dim() != 2 or \
            meta.shape[1] != META_FIELDS or splits.dtype != torch.int32 or \
            tuple(splits.shape) != (B + 1,):
        raise ValueError("flash_mla_with_kvcache: tile_scheduler_metadata "
                         "and num_splits must come from get_mla_metadata "
                         "for this batch")
    s = k_cache.stride()
    if s[3] != 1 or s[0] != PAGE * s[1] or \
            (s[1] * k_cache.element_size()) % 16:
        raise ValueError("flash_mla_with_kvcache: k_cache pages must be "
                         "contiguous rows (stride(0) = 64 * stride(1), "
                         "last stride 1)")


def _decode_outputs(q):
    """The decode's out [b, s_q, h_q, 512] and lse [b, h_q, s_q] fp32."""
    B, Sq, H, _ = q.shape
    return (q.new_empty((B, Sq, H, HEAD_DIM_V)),
            q.new_empty((B, H, Sq), dtype=torch.float32))


def _combine(oacc, lacc, splits, out, lse, B, M, H, Sq):
    """Merges the split-KV pieces of either decode kernel into out, lse."""
    _kernels.mla_combine[(B, math.ceil(M / COMBINE_ROWS))](
        oacc, lacc, splits, out, lse, M, H, Sq, DV=HEAD_DIM_V,
        ROWS=COMBINE_ROWS, num_warps=4)


def flash_mla_into(q, k_cache, block_table, cache_seqlens, meta, splits,
                   softmax_scale, causal, out, lse, cluster=None,
                   schedule=None, reload_q=None, prefetch=None, ablate=None,
                   combine=True, lean_publish=None, early_alpha=None):
    """The decode and combine kernels into caller-given `out` ([batch,
    s_q, h_q, 512], contiguous) and `lse` ([batch, h_q, s_q] fp32).
    cluster=2 pairs the CTAs of two query tiles into a cluster that loads
    each page once (multicast); the default does so when the number of
    query tiles is even. `schedule` names one of SCHEDULES. reload_q,
    prefetch, lean_publish and early_alpha override DECODE_RELOAD_Q,
    DECODE_PREFETCH, DECODE_LEAN_PUBLISH and DECODE_EARLY_ALPHA (prefetch
    needs
    each page's 64 rows contiguous, k_cache.stride(1) == 576, and is
    dropped otherwise). For timing only (wrong results): ablate names one
    of mla.ABLATIONS, a part of each page's work left out (page schedule
    only); combine=False skips the combine kernel."""
    from .. import TensorDescriptor
    B, Sq, H, _ = q.shape
    M = Sq * H
    if B == 0 or M == 0:
        return
    q2 = q.reshape(B * M, HEAD_DIM)
    if not q2.is_contiguous() or q2.data_ptr() % 16:
        q2 = q2.contiguous().clone()
    row_stride = k_cache.stride(1)
    k2 = torch.as_strided(k_cache, (k_cache.shape[0] * PAGE, HEAD_DIM),
                          (row_stride, 1))
    sched = SCHEDULES[schedule or DECODE_SCHEDULE]
    qd = TensorDescriptor.from_tensor(q2, [ROWS_PER_CTA, 256])
    qrd = TensorDescriptor.from_tensor(q2, [ROWS_PER_CTA, 64])
    kd = TensorDescriptor(k2, k2.shape, k2.stride(), [sched["BN"], 256])
    krd = TensorDescriptor(k2, k2.shape, k2.stride(), [sched["BN"], 64])
    parts = meta.shape[0]
    max_pieces = B + parts  # a part starts at most one extra piece
    oacc = torch.empty((max_pieces * M, HEAD_DIM_V), device=q.device,
                       dtype=torch.float32)
    lacc = torch.empty((max_pieces * M,), device=q.device,
                       dtype=torch.float32)
    bt = block_table if block_table.stride(1) == 1 else \
        block_table.contiguous()
    m_tiles = math.ceil(M / ROWS_PER_CTA)
    if cluster is None:
        cluster = DEFAULT_CLUSTER if m_tiles % 2 == 0 else 1
    if m_tiles % cluster:
        raise ValueError(f"flash_mla_into: cluster={cluster} does not "
                         f"divide the {m_tiles} query tiles")
    extra = _decode_options(k_cache, k2, sched, reload_q, prefetch, ablate,
                            lean_publish, early_alpha)
    _kernels.mla_decode[(m_tiles // cluster, parts)](
        qd, qrd, kd, krd, out, lse, oacc, lacc, meta, bt, bt.stride(0),
        cache_seqlens, splits, M, H, Sq, softmax_scale * _kernels.LOG2E,
        CAUSAL=bool(causal), CLUSTER=cluster, **sched, **extra, num_warps=4,
        num_warpgroups=3, num_ctas=cluster)
    if combine:
        _combine(oacc, lacc, splits, out, lse, B, M, H, Sq)


def _decode_options(k_cache, k2, sched, reload_q, prefetch, ablate,
                    lean_publish, early_alpha):
    """mla_decode's RELOAD_Q, and its PREFETCH (with k_ptr), ABLATE, LEAN
    and EARLY_ALPHA arguments where they differ from the kernel's defaults
    (EARLY_ALPHA only where the schedule has it: OVERLAP=0, no ablation)."""
    extra = {"RELOAD_Q": bool(DECODE_RELOAD_Q if reload_q is None
                              else reload_q)}
    if DECODE_LEAN_PUBLISH if lean_publish is None else lean_publish:
        extra["LEAN"] = True
    if (DECODE_EARLY_ALPHA if early_alpha is None else early_alpha) and \
            sched["OVERLAP"] == 0 and ablate in (None, "none"):
        extra["EARLY_ALPHA"] = True
    pf = DECODE_PREFETCH if prefetch is None else int(prefetch)
    if pf < 0:
        raise ValueError(f"flash_mla_into: prefetch={pf} (pages ahead, >= 0)")
    if pf and k_cache.stride(1) == HEAD_DIM:
        extra.update(PREFETCH=pf, k_ptr=k2)
    if ablate not in (None, "none"):
        if ablate not in _kernels.ABLATIONS:
            raise ValueError(f"flash_mla_into: ablate={ablate!r}, not one "
                             f"of {sorted(_kernels.ABLATIONS)}")
        if sched["OVERLAP"] != 0:
            raise ValueError("flash_mla_into: ablate needs an OVERLAP=0 "
                             "schedule")
        extra["ABLATE"] = _kernels.ABLATIONS[ablate]
    return extra


@torch.library.custom_op("txl::flash_mla_with_kvcache", mutates_args=(),
                         device_types="cuda")
def _flash_mla(q: torch.Tensor, k_cache: torch.Tensor,
               block_table: torch.Tensor, cache_seqlens: torch.Tensor,
               meta: torch.Tensor, splits: torch.Tensor,
               softmax_scale: float,
               causal: bool) -> tuple[torch.Tensor, torch.Tensor]:
    out, lse = _decode_outputs(q)
    flash_mla_into(q, k_cache, block_table, cache_seqlens, meta, splits,
                   softmax_scale, causal, out, lse)
    return out, lse


@_flash_mla.register_fake
def _(q, k_cache, block_table, cache_seqlens, meta, splits, softmax_scale,
      causal):
    return _decode_outputs(q)


def flash_mla_fp8_into(q, k_cache, block_table, cache_seqlens, meta,
                       splits, softmax_scale, causal, out, lse, cluster=None,
                       convert=True, prefetch=None):
    """The fp8-cache decode (mla_fp8.py) and the combine kernel into
    caller-given `out` ([batch, s_q, h_q, 512] bf16, contiguous) and `lse`
    ([batch, h_q, s_q] fp32): q bf16, k_cache [num_blocks, 64, 1, 656]
    (float8_e4m3fn or uint8) in FlashMLA's fp8 format, pages contiguous.
    cluster as flash_mla_into; convert=False skips the dequantization's
    arithmetic (wrong results: bench_mla.py --ab fp8 times the rest);
    prefetch: pages asked of L2 ahead of their loads (None: the kernel's
    default, 0: none)."""
    from .. import TensorDescriptor
    B, Sq, H, _ = q.shape
    M = Sq * H
    if B == 0 or M == 0:
        return
    q2 = q.reshape(B * M, HEAD_DIM)
    if not q2.is_contiguous() or q2.data_ptr() % 16:
        q2 = q2.contiguous().clone()
    rows = k_cache.shape[0] * PAGE
    raw = torch.as_strided(k_cache.view(torch.uint8),
                           (rows, FP8_TOKEN_BYTES), (k_cache.stride(1), 1))
    nope = raw.view(torch.float8_e4m3fn)
    rope = raw.view(torch.bfloat16)    # the rope: bf16 column 264
    scales = raw.view(torch.float32)   # the scales: fp32 column 128
    bn = PAGE  # one page a step (mla_fp8.py)
    qd = TensorDescriptor.from_tensor(q2, [ROWS_PER_CTA, 256])
    qrd = TensorDescriptor.from_tensor(q2, [ROWS_PER_CTA, 64])
    knd = TensorDescriptor(nope, nope.shape, nope.stride(), [bn, 256])
    krd = TensorDescriptor(rope, rope.shape, rope.stride(), [bn, 64])
    ksd = TensorDescriptor(scales, scales.shape, scales.stride(),
                           [bn, HEAD_DIM_V // FP8_SCALE_TILE])
    parts = meta.shape[0]
    max_pieces = B + parts
    oacc = torch.empty((max_pieces * M, HEAD_DIM_V), device=q.device,
                       dtype=torch.float32)
    lacc = torch.empty((max_pieces * M,), device=q.device,
                       dtype=torch.float32)
    bt = block_table if block_table.stride(1) == 1 else \
        block_table.contiguous()
    m_tiles = math.ceil(M / ROWS_PER_CTA)
    if cluster is None:
        cluster = DEFAULT_CLUSTER if m_tiles % 2 == 0 else 1
    if m_tiles % cluster:
        raise ValueError(f"flash_mla_fp8_into: cluster={cluster} does not "
                         f"divide the {m_tiles} query tiles")
    # The prefetches ask for a page as 64 x 656 contiguous bytes.
    if k_cache.stride(1) != FP8_TOKEN_BYTES:
        prefetch = 0
    extra = {} if prefetch is None else {"PREFETCH": prefetch}
    _fp8_kernels.mla_decode_fp8[(m_tiles // cluster, parts)](
        qd, qrd, knd, krd, ksd, raw, out, lse, oacc, lacc, meta, bt,
        bt.stride(0), cache_seqlens, splits, M, H, Sq,
        softmax_scale * _kernels.LOG2E, CAUSAL=bool(causal),
        CLUSTER=cluster, CONVERT=convert, **extra,
        num_warps=4, num_warpgroups=3, num_ctas=cluster)
    _combine(oacc, lacc, splits, out, lse, B, M, H, Sq)


@torch.library.custom_op("txl::flash_mla_fp8_with_kvcache", mutates_args=(),
                         device_types="cuda")
def _flash_mla_fp8(q: torch.Tensor, k_cache: torch.Tensor,
                   block_table: torch.Tensor, cache_seqlens: torch.Tensor,
                   meta: torch.Tensor, splits: torch.Tensor,
                   softmax_scale: float,
                   causal: bool) -> tuple[torch.Tensor, torch.Tensor]:
    out, lse = _decode_outputs(q)
    flash_mla_fp8_into(q, k_cache, block_table, cache_seqlens, meta, splits,
                       softmax_scale, causal, out, lse)
    return out, lse


@_flash_mla_fp8.register_fake
def _(q, k_cache, block_table, cache_seqlens, meta, splits, softmax_scale,
      causal):
    return _decode_outputs(q)


def flash_mla_with_kvcache(q, k_cache, block_table, cache_seqlens,
                           head_dim_v, tile_scheduler_metadata, num_splits,
                           softmax_scale=None, causal=False,
                           is_fp8_kvcache=False):
    """MLA decoding against a paged KV cache (FlashMLA's API): q [batch,
    s_q, h_q, 576], k_cache [num_blocks, 64, 1, 576] (its first 512
    channels are V), block_table [batch, max_blocks] int32, cache_seqlens
    [batch] int32 -> (out [batch, s_q, h_q, 512], lse [batch, h_q, s_q]
    fp32). softmax_scale defaults to 576 ** -0.5; causal masks query token
    s of s_q to keys k <= seqlen - s_q + s. is_fp8_kvcache=True: k_cache
    is [num_blocks, 64, 1, 656] float8_e4m3fn (or uint8) in FlashMLA's
    "FP8 with scale" format (quantize_mla_kv_cache makes one), q bf16; the
    cache is dequantized to bf16 inside the kernel (mla_fp8.py)."""
    fp8 = bool(is_fp8_kvcache)
    _check(q, k_cache, block_table, cache_seqlens, head_dim_v,
           tile_scheduler_metadata, num_splits, fp8)
    if softmax_scale is None:
        softmax_scale = HEAD_DIM ** -0.5
    op = _flash_mla_fp8 if fp8 else _flash_mla
    return op(q, k_cache, block_table, cache_seqlens, tile_scheduler_metadata,
              num_splits, float(softmax_scale), bool(causal))


def quantize_mla_kv_cache(k_cache, pow2_scales=True):
    """A [num_blocks, 64, 1, 576] bf16/fp16/fp32 cache in FlashMLA's fp8
    format: [num_blocks, 64, 1, 656] float8_e4m3fn, each token's 512 nope
    channels as e4m3 with one fp32 scale per 128 (amax / 448, rounded up
    to a power of two with pow2_scales, as FlashMLA's quantizer does: then
    the kernel's dequantization is exact), then its 64 rope channels as
    bf16. Scales must stay below 2^8 (mla_fp8.py)."""
    if k_cache.dim() != 4 or tuple(k_cache.shape[1:]) != (PAGE, 1,
                                                            HEAD_DIM):
        raise ValueError("quantize_mla_kv_cache: k_cache must be "
                         f"[num_blocks, {PAGE}, 1, {HEAD_DIM}]")
    out = torch.empty((k_cache.shape[0] * PAGE, FP8_TOKEN_BYTES),
                      dtype=torch.uint8, device=k_cache.device)
    rows = k_cache.reshape(-1, HEAD_DIM)
    chunk = 1 << 18  # tokens at a time (fp32 temporaries)
    for r in range(0, rows.shape[0], chunk):
        out[r:r + chunk] = _quantize_tokens(rows[r:r + chunk].float(),
                                            pow2_scales)
    return out.view(torch.float8_e4m3fn).reshape(
        k_cache.shape[0], PAGE, 1, FP8_TOKEN_BYTES)


def _quantize_tokens(k, pow2_scales):
    """[n, 576] fp32 tokens -> [n, 656] bytes of the fp8 format."""
    tiles = HEAD_DIM_V // FP8_SCALE_TILE
    nope = k[:, :HEAD_DIM_V].reshape(-1, tiles, FP8_SCALE_TILE)
    scale = nope.abs().amax(-1) / 448.0
    scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    if pow2_scales:
        scale = torch.exp2(torch.ceil(torch.log2(scale)))
    q8 = (nope / scale[..., None]).clamp(-448.0, 448.0).to(
        torch.float8_e4m3fn)
    out = torch.empty((k.shape[0], FP8_TOKEN_BYTES), dtype=torch.uint8,
                      device=k.device)
    out[:, :HEAD_DIM_V] = q8.reshape(-1, HEAD_DIM_V).view(torch.uint8)
    out[:, HEAD_DIM_V:HEAD_DIM_V + 4 * tiles] = scale.contiguous().view(
        torch.uint8).reshape(-1, 4 * tiles)
    out[:, HEAD_DIM_V + 4 * tiles:] = k[:, HEAD_DIM_V:].bfloat16().view(
        torch.uint8)
    return out


def dequantize_mla_kv_cache(k8):
    """The bf16 [num_blocks, 64, 1, 576] cache an fp8 one stands for, as
    mla_decode_fp8 sees it: each nope channel bf16(e4m3 * bf16(scale)),
    the rope as stored."""
    raw = k8.view(torch.uint8).reshape(-1, FP8_TOKEN_BYTES)
    out = torch.empty((raw.shape[0], HEAD_DIM), dtype=torch.bfloat16,
                      device=k8.device)
    tiles = HEAD_DIM_V // FP8_SCALE_TILE
    chunk = 1 << 18
    for r in range(0, raw.shape[0], chunk):
        part = raw[r:r + chunk]
        x = part[:, :HEAD_DIM_V].contiguous().view(
            torch.float8_e4m3fn).float()
        scale = part[:, HEAD_DIM_V:HEAD_DIM_V + 4 * tiles].contiguous(
        ).view(torch.float32).bfloat16().float()
        nope = x.reshape(-1, tiles, FP8_SCALE_TILE) * scale[..., None]
        out[r:r + chunk, :HEAD_DIM_V] = nope.reshape(-1, HEAD_DIM_V)
        out[r:r + chunk, HEAD_DIM_V:] = part[:, HEAD_DIM_V + 4 * tiles:
                                             ].contiguous().view(
                                                 torch.bfloat16)
    return out.reshape(k8.shape[0], PAGE, 1, HEAD_DIM)


def _check_sparse(q, kv, indices, d_v):
    if q.dim() != 3 or q.shape[-1] != HEAD_DIM:
        raise ValueError(f"flash_mla_sparse_fwd: q must be [s_q, h_q, "
                         f"{HEAD_DIM}], got {tuple(q.shape)}")
    if kv.dim() != 3 or tuple(kv.shape[1:]) != (1, HEAD_DIM):
        raise ValueError(f"flash_mla_sparse_fwd: kv must be [s_kv, 1, "
                         f"{HEAD_DIM}], got {tuple(kv.shape)}")
    if d_v != HEAD_DIM_V:
        raise NotImplementedError(
            f"flash_mla_sparse_fwd: d_v={d_v} (512 only)")
    if q.dtype != torch.bfloat16 or kv.dtype != torch.bfloat16:
        raise NotImplementedError("flash_mla_sparse_fwd: q and kv must be "
                                  f"bf16, got {q.dtype} and {kv.dtype}")
    if indices.dtype != torch.int32 or indices.dim() != 3 or \
            indices.shape[0] != q.shape[0] or indices.shape[1] != 1:
        raise ValueError("flash_mla_sparse_fwd: indices must be [s_q, 1, "
                         "topk] int32")
    if indices.shape[2] % PAGE or indices.shape[2] == 0:
        raise NotImplementedError(
            f"flash_mla_sparse_fwd: topk={indices.shape[2]} (a positive "
            "multiple of 64)")


def flash_mla_sparse_into(q, kv, indices, sm_scale, out, max_logits, lse,
                          ctas_per_head_tile=None, schedule=None,
                          gather=None):
    """The sparse prefill kernel into caller-given `out` ([s_q, h_q, 512]
    bf16, contiguous), `max_logits` and `lse` ([s_q, h_q] fp32)."""
    from .. import TensorDescriptor
    Sq, H, _ = q.shape
    Skv, topk = kv.shape[0], indices.shape[2]
    if Sq == 0 or H == 0:
        return
    q2 = q.reshape(Sq * H, HEAD_DIM)
    if not q2.is_contiguous() or q2.data_ptr() % 16:
        q2 = q2.contiguous().clone()
    kv2 = kv.reshape(Skv, HEAD_DIM)
    if not kv2.is_contiguous() or kv2.data_ptr() % 16:
        kv2 = kv2.contiguous().clone()
    idx = indices.reshape(Sq, topk).contiguous()
    qd = TensorDescriptor.from_tensor(q2, [ROWS_PER_CTA, 256])
    qrd = TensorDescriptor.from_tensor(q2, [ROWS_PER_CTA, 64])
    name = schedule or (SHORT_TOPK_SCHEDULE if topk <= SHORT_TOPK else
                        SPARSE_SCHEDULE)
    if name not in SPARSE_SCHEDULES:
        raise ValueError(f"flash_mla_sparse_into: schedule {name!r} (one "
                         f"of {SPARSE_SCHEDULES})")
    m_tiles = math.ceil(H / ROWS_PER_CTA)
    if ctas_per_head_tile is None:
        ctas_per_head_tile = max(1, _num_sms(q.device) // m_tiles)
    ctas = min(Sq, ctas_per_head_tile)
    if name in PAIR_SCHEDULES:
        if gather not in (None, "cp.async"):
            raise ValueError("flash_mla_sparse_into: the pair schedules "
                             "gather by cp.async only")
        out2 = out.view(Sq * H, HEAD_DIM_V)
        od = TensorDescriptor.from_tensor(out2, [ROWS_PER_CTA, 256])
        tma_store = PAIR_SCHEDULES[name]["TMA_STORE"] and \
            H % ROWS_PER_CTA == 0 and out2.data_ptr() % 16 == 0
        _kernels.mla_sparse_pair[(m_tiles, ctas)](
            qd, qrd, kv2, idx, out, od, max_logits, lse, Sq, Skv, H, topk,
            sm_scale * _kernels.LOG2E, TMA_STORE=tma_store, num_warps=4,
            num_warpgroups=3)
        return
    sched = SCHEDULES[name]
    kvd = TensorDescriptor.from_tensor(kv2, [1, 256])
    kvrd = TensorDescriptor.from_tensor(kv2, [1, 64])
    _kernels.mla_sparse_fwd[(m_tiles, ctas)](
        qd, qrd, kvd, kvrd, idx, out, max_logits, lse, Sq, Skv, H, topk,
        sm_scale * _kernels.LOG2E, **sched, kv_ptr=kv2,
        CP_ASYNC=(gather or SPARSE_GATHER) == "cp.async", num_warps=4,
        num_warpgroups=3)


@torch.library.custom_op("txl::flash_mla_sparse_fwd", mutates_args=(),
                         device_types="cuda")
def _flash_mla_sparse(q: torch.Tensor, kv: torch.Tensor,
                      indices: torch.Tensor, sm_scale: float
                      ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    Sq, H, _ = q.shape
    out = q.new_empty((Sq, H, HEAD_DIM_V))
    max_logits = q.new_empty((Sq, H), dtype=torch.float32)
    lse = q.new_empty((Sq, H), dtype=torch.float32)
    flash_mla_sparse_into(q, kv, indices, sm_scale, out, max_logits, lse)
    return out, max_logits, lse


@_flash_mla_sparse.register_fake
def _(q, kv, indices, sm_scale):
    Sq, H, _ = q.shape
    return (q.new_empty((Sq, H, HEAD_DIM_V)),
            q.new_empty((Sq, H), dtype=torch.float32),
            q.new_empty((Sq, H), dtype=torch.float32))


def flash_mla_sparse_fwd(q, kv, indices, sm_scale, d_v=HEAD_DIM_V):
    """Sparse MLA prefill (FlashMLA's flash_mla_sparse_fwd): q [s_q, h_q,
    576], kv [s_kv, 1, 576] (its first 512 channels are V), indices [s_q,
    1, topk] int32 (entries < 0 or >= s_kv are skipped; repeats count
    each time) -> (out [s_q, h_q, 512], max_logits [s_q, h_q], lse [s_q,
    h_q]), bf16 and fp32; max_logits and lse are in log2 units (of
    sm_scale * log2(e) * q.k), as FlashMLA's. A row with no valid index
    gets out = 0, max_logits = -inf, lse = +inf."""
    _check_sparse(q, kv, indices, d_v)
    return _flash_mla_sparse(q, kv, indices, float(sm_scale))
