"""Ready-made kernels written in txl, callable from PyTorch.

    import txl.ops
    out = txl.ops.flash_attn_func(q, k, v, causal=True)

`flash_attn_func` follows flash-attn's convention: q [batch, seqlen_q,
heads, head_dim], k and v [batch, seqlen_k, kv_heads, head_dim] (kv_heads
divides heads: GQA/MQA), fp16 or bf16, head_dim 64, 128 or 256 (the
backward: 64 or 128). It is the custom op `txl::flash_attn_forward`
(torch.library), so torch.compile treats it as one opaque op. The kernel
(python/txl/ops/flash_attn.py) compiles on first use per variant (dtype,
head_dim, causal, window, softcap, varlen) and is cached like any txl
kernel.

The backward pass (python/txl/ops/flash_attn_bwd.py) is the custom op
`txl::flash_attn_backward`, wired in with register_autograd: gradients
flow to q, k and v (and through the LSE when return_lse=True and the loss
uses it). `flash_attn_varlen_func` (packed variable-length sequences,
cu_seqlens_q/k) has its backward too (`txl::flash_attn_varlen_backward`).
Head dim 256 has none: each consumer warpgroup of the backward keeps dK
and dV of its 64 keys in fp32 registers, 2 * 64 * 256 * 4 bytes / 128
threads = 256 registers a thread, more than a thread can have (255), and
K, V and a two-stage Q/dO ring would take 256 KB of shared memory (227 KB
on Hopper); it raises NotImplementedError saying so.

The forward also takes sliding windows (window_size=(left, right),
bottom-right aligned like causal: query i sees keys i + seqlen_k -
seqlen_q - left .. i + seqlen_k - seqlen_q + right, -1 for no bound;
causal=True sets right = 0) and softcap (scores softcap * tanh(s /
softcap)).

DeepSeek MLA (python/txl/ops/mla.py, FlashMLA's interface):
`get_mla_metadata` + `flash_mla_with_kvcache` decode against a paged KV
cache (custom op `txl::flash_mla_with_kvcache`), and
`flash_mla_sparse_fwd` is the top-k sparse prefill
(`txl::flash_mla_sparse_fwd`). Both take 576-wide q/k with V = the first
512 channels; see _mla.py for shapes and conventions. The decode also
reads FlashMLA's fp8 cache format (`is_fp8_kvcache=True`, mla_fp8.py;
`quantize_mla_kv_cache` / `dequantize_mla_kv_cache` convert).

fp8: q, k, v all float8_e4m3fn run the same forward kernel with FP8 set
(custom ops `txl::flash_attn_fp8_forward` and, for flash_attn_varlen_func,
`txl::flash_attn_fp8_varlen_forward`) with per-tensor descale factors
descale_q, descale_k, descale_v (the real tensors are the fp8 ones times
these; Python floats or one-element tensors, read on the host); the
output is bf16. Causal, GQA, windows, softcap and varlen are supported,
head dims 64 and 128. V is transposed on the host (transpose_v_fp8: 8-bit
wgmma reads B only K-major; each group of 32 keys in the order in which P
reaches the P V wgmma from registers, txl.acc_to_dot_a), one extra pass
over V per call.

Not implemented yet (each raises NotImplementedError): head dims other
than 64, 128 and 256 (64 and 128 for fp8 and the backward), per-head
descales, and an fp8 backward.
"""
import math
import os
from typing import NamedTuple, Optional

import torch

from . import flash_attn as _kernels
from . import flash_attn_bwd as _bwd_kernels
from ._scales import forward_scale as _forward_scale
from ._mla import (dequantize_mla_kv_cache, flash_mla_sparse_fwd,
                   flash_mla_with_kvcache, get_mla_metadata,
                   quantize_mla_kv_cache)

__all__ = ["flash_attn_func", "flash_attn_varlen_func",
           "flash_attn_forward_into", "flash_attn_varlen_forward_into",
           "flash_attn_fp8_forward_into",
           "flash_attn_backward_into", "flash_mla_sparse_fwd",
           "flash_mla_with_kvcache", "get_mla_metadata",
           "quantize_mla_kv_cache", "dequantize_mla_kv_cache"]

_BLOCK_N = 128   # keys per block of the fp8 forward
# Q/dO ring depth of the backward (D64: 4 on the H100, session 14: 441 vs
# 433 TFLOP/s non-causal, 407 vs 388 causal, with PINGPONG).
_BWD_STAGES = {64: 4, 128: 2}
# The backward's consumers take turns at dQ (flash_bwd PINGPONG) by default
# at these head dims; `pingpong=` of the *_backward_into functions overrides.
# D64 on the H100 (session 14, with 4 stages, B8 H16 S8192): 441 vs 383
# TFLOP/s non-causal, 407 vs 387 causal (lockstep, 3 stages).
_BWD_PINGPONG = {64: True, 128: False}
# Without PINGPONG: dK's wgmma issued after dQ's, so that dQ's epilogue runs
# under it (flash_bwd DQ_FIRST).
_BWD_DQ_FIRST = {64: False, 128: False}
# The backward's launch per head dim (_bwd_schedule): False (one CTA per
# tile), "static" or "dynamic" (flash_bwd PERSISTENT: one CTA per SM
# walking the (key block, kv head) tiles; DYNAMIC: taking them from a
# counter); `persistent=` of the *_backward_into functions overrides. The
# grid until an H100 A/B (bench/ab_attention_bwd.py, variants new-pers
# and new-pers-dyn) says otherwise.
_BWD_PERSISTENT = {64: False, 128: False}
_FP8_STAGES = {64: 4, 128: 3}  # K/V^T ring depth of the fp8 forward


class FwdConfig(NamedTuple):
    """How the forward kernel (python/txl/ops/flash_attn.py) is launched
    for one (head dim, causal): FWD_CONFIG holds the defaults, and
    flash_attn_forward_into's `tuning` (a dict of these fields) overrides
    them per call."""
    # "grid" (one CTA per work tile), "static" or "dynamic" (one CTA per
    # SM walking the tiles, _fwd_schedule)
    persistent: str
    block_n: int      # keys per K/V block (fp8: _BLOCK_N, unless tuned)
    stages: int       # K/V ring depth (fp8: _FP8_STAGES, unless tuned)
    q_slots: int      # Q slots of the persistent launch (grid: 1)
    overlap: bool     # intra-warpgroup overlap (when the caller allows it)
    consumers: int = 2         # consumer warpgroups of 64 query rows each
    o_from_regs: bool = False  # O stored from the accumulator's registers
    # K/V bytes the causal order's sections of heads share in L2
    # (_heads_per_section; None: _L2_KV_BYTES)
    l2_kv_bytes: Optional[int] = None
    # causal (no window): each consumer computes only the blocks its own
    # rows see and masks only its own diagonal (not yet run on a GPU)
    consumer_bounds: bool = False


# The forward's defaults per (head dim, causal).
# - persistent: from two H100 A/B runs of session 13
#   (bench/ab_flash_fwd_persistent.py, TFLOP/s, persistent / one CTA per
#   tile, bench/RESULTS.md): causal work, whose tiles differ in length,
#   gains from the dynamic order at D128 (590 / 563, then 581 / 568) and
#   D64 (418 / 401, then 381 / 381); at D256 causal the two runs disagree
#   (539 / 519, then 527 / 530). Non-causal: the static order at D128
#   (603 / 594, then 616 / 582; fp8 667 / 655, then 718 / 707) and D256
#   (617 / 583); at D64 the first run had persistent slower (379 / 424),
#   the second even (416 / 414), so D64 keeps the grid.
# - block_n, stages: what fits shared memory and the consumers' registers;
#   at 256, O alone is 128 registers a thread: 64-key blocks.
# - overlap: the intra-warpgroup overlap everywhere. At head dim 256 it
#   spilled in the loop once; now it does not (ptxas of CUDA 13.0), and
#   the session 14 A/B (one process, two rounds) has it ahead: causal 594
#   vs 549 TFLOP/s without (cuDNN 605), non-causal 624 vs 588 (cuDNN 660).
# - q_slots: two let the next tile's Q land while the consumers still read
#   this one; at head dim 256 a second slot (64 KB) does not fit next to
#   the K/V ring.
# - consumers: 3 (192-row tiles, 160 registers a consumer) only fits head
#   dim 64; session 14's A/B had it mixed there (grid, non-causal: 440 vs
#   427 TFLOP/s, rounds 460 / 421; causal slower: the persistent kernel
#   spills in its loop unless the overlap is off), so 2 stays the default.
# - o_from_regs: at head dim 256 the epilogue otherwise stages O through
#   the consumer's Q tile, which keeps Q's slot (and the producer's next
#   tile) waiting until the epilogue is done; but the 32-bit stores from
#   the registers cost more than that wait: 522 vs 549 TFLOP/s causal,
#   576 vs 588 non-causal (session 14), so it stays off.
FWD_CONFIG = {
    (64, False): FwdConfig("grid", 128, 3, 2, True),
    (64, True): FwdConfig("dynamic", 128, 3, 2, True),
    (128, False): FwdConfig("static", 128, 2, 2, True),
    (128, True): FwdConfig("dynamic", 128, 2, 2, True),
    (256, False): FwdConfig("static", 64, 2, 1, True),
    (256, True): FwdConfig("dynamic", 64, 2, 1, True),
}
_FWD_HEAD_DIMS = sorted({d for d, _ in FWD_CONFIG})
# K/V bytes the CTAs running at once should share in L2 in the causal
# persistent order (the H100 has 50 MB of L2).
_L2_KV_BYTES = 32 << 20
_SM_COUNT = {}
_FP8 = torch.float8_e4m3fn


def _aligned(t):
    """t contiguous with a 16-byte aligned base (TMA's rule)."""
    t = t.contiguous()
    if t.data_ptr() % 16:
        t = t.clone()
    return t


def _check(q, k, v):
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError("flash_attn_func: q, k, v must be [batch, seqlen, "
                         "heads, head_dim]")
    if not (q.is_cuda and k.is_cuda and v.is_cuda):
        raise ValueError("flash_attn_func: q, k, v must be CUDA tensors")
    if q.dtype not in (torch.float16, torch.bfloat16, _FP8) or \
            k.dtype != q.dtype or v.dtype != q.dtype:
        raise NotImplementedError(
            "flash_attn_func: q, k, v must all be fp16, all bf16 or all "
            f"float8_e4m3fn, got {q.dtype}, {k.dtype}, {v.dtype}")
    B, _, H, D = q.shape
    if k.shape != v.shape or k.shape[0] != B or k.shape[3] != D:
        raise ValueError(f"flash_attn_func: k {tuple(k.shape)} and v "
                         f"{tuple(v.shape)} do not match q {tuple(q.shape)}")
    if D not in _FWD_HEAD_DIMS:
        raise NotImplementedError(
            f"flash_attn_func: head_dim {D} (64, 128 and 256 are "
            "supported)")
    if H % k.shape[2]:
        raise ValueError(f"flash_attn_func: kv heads {k.shape[2]} must "
                         f"divide query heads {H}")


def _window(causal, window_size):
    """(left, right) as the kernel takes them: -1 for no bound; causal
    means right = 0 (flash-attn's rule)."""
    left, right = (int(w) for w in window_size)
    left = left if left >= 0 else -1
    right = right if right >= 0 else -1
    if causal:
        right = 0
    return left, right


def flash_attn_forward_into(q, k, v, out, lse, softmax_scale, causal,
                            overlap=True, pingpong=True,
                            window_size=(-1, -1), softcap=0.0,
                            persistent=None, max_ctas=None, tuning=None):
    """The forward kernel into caller-given `out` (q's shape, contiguous)
    and `lse` ([batch, heads, seqlen_q] fp32, contiguous). `overlap` and
    `pingpong` choose the schedule (see flash_attn.py; overlap=True means
    the intra-warpgroup overlap where FWD_CONFIG has it); window_size and
    softcap as in flash_attn_func. `persistent` (None: the default per
    head dim and causality, FWD_CONFIG) launches one CTA per SM walking
    the work tiles, at most `max_ctas` of them if given (tests use a small
    grid to give each CTA several tiles), in a static order ("static") or
    taking tiles from a counter ("dynamic"; True: dynamic for causal work,
    else static); False one CTA per tile. `tuning`: a dict of FwdConfig
    fields that replace FWD_CONFIG's for this call (benchmarks, tests)."""
    _forward_dense(q, k, v, out, lse, softmax_scale, causal, window_size,
                   softcap, overlap=overlap, pingpong=pingpong,
                   persistent=persistent, max_ctas=max_ctas, tuning=tuning)


def _forward_dense(q, k, v, out, lse, softmax_scale, causal, window_size,
                   softcap, **kernel_args):
    """[batch, seqlen, heads, D] tensors into the kernel's packed form
    (rows batch * seqlen, sequence b starting at row b * seqlen)."""
    B, Sq, H, D = q.shape
    Sk, Hkv = k.shape[1], k.shape[2]
    if Sq == 0:
        return
    if Sk == 0:
        out.zero_()
        lse.fill_(float("-inf"))
        return
    q, k, v = _aligned(q), _aligned(k), _aligned(v)
    _launch_fwd(q.view(B * Sq, H, D), k.view(B * Sk, Hkv, D),
                v.view(B * Sk, Hkv, D), out, lse, B, Sq, Sk, Sq, None, None,
                softmax_scale, causal, window_size, softcap, **kernel_args)


def _launch_fwd(q, k, v, out, lse, B, seqlen_q, seqlen_k, max_seqlen_q,
                cu_q, cu_k, softmax_scale, causal, window_size, softcap,
                overlap=True, pingpong=True, descale_q=1.0, descale_k=1.0,
                descale_v=1.0, persistent=None, max_ctas=None, tuning=None):
    """The one launcher of flash_fwd (python/txl/ops/flash_attn.py), for
    every dtype: q [rows_q, H, D], k and v [rows_k, Hkv, D] contiguous and
    16-byte aligned; cu_q/cu_k (int32 [B + 1]) for packed sequences, else
    None (sequence b at row b * seqlen). fp8: V is transposed here and the
    descales folded into the scales."""
    from .. import TensorDescriptor
    rows_q, H, D = q.shape
    rows_k, Hkv = k.shape[0], k.shape[1]
    fp8 = q.dtype == _FP8
    left, right = _window(causal, window_size)
    causal_flag = right >= 0
    cfg = _fwd_config(D, causal_flag, tuning, fp8)
    if cfg.consumers == 3 and (fp8 or softcap != 0.0):
        # Run 1 on the H100 (session 14): the three-consumer kernel failed
        # its softcap tests (cause not found); fp8 never ran with it.
        raise NotImplementedError(
            "flash_attn: three consumer warpgroups (tuning consumers=3) "
            "support fp16/bf16 without softcap only")
    bn = cfg.block_n
    qd = TensorDescriptor.from_tensor(q.view(rows_q, H * D), [64, D])
    kd = TensorDescriptor.from_tensor(k.view(rows_k, Hkv * D), [bn, D])
    varlen = cu_q is not None
    # fp8: P reaches the P V wgmma from registers (txl.acc_to_dot_a, V's
    # keys permuted to match) unless TXL_FP8_P_SMEM=1 asks for the older
    # path through a shared buffer (kept for A/B timing).
    p_smem = fp8 and os.environ.get("TXL_FP8_P_SMEM", "0") == "1"
    if fp8:
        cu_vt = cu_k if varlen else torch.arange(
            0, (B + 1) * seqlen_k, seqlen_k, device=v.device)[:B + 1]
        vt = transpose_v_fp8(v, cu_vt, permute_keys=not p_smem)
        vd = TensorDescriptor.from_tensor(vt, [D, bn])
    else:
        vd = TensorDescriptor.from_tensor(v.view(rows_k, Hkv * D), [bn, D])
    if not varlen:
        cu_q = cu_k = lse  # unread
    block_m = 64 * cfg.consumers  # query rows per work tile
    m_blocks = (max_seqlen_q + block_m - 1) // block_m
    qk_scale, softcap_scale = _score_scales(
        _forward_scale(softmax_scale * descale_q * descale_k, softcap),
        softcap)
    schedule = _fwd_schedule(persistent, cfg, causal_flag)
    tiles = m_blocks * B * H
    if schedule != "grid":
        ctas = max(min(tiles, max_ctas or _num_sms(q.device)), 1)
        grid = (ctas,)
    else:
        grid = (m_blocks, B * H)
    q_slots = cfg.q_slots if schedule != "grid" else 1
    if schedule == "dynamic":
        # [0]: the tile counter (zero at launch), then each CTA's q_slots
        # tile numbers handed from its producer to its consumers.
        sched = torch.zeros(1 + grid[0] * q_slots, device=q.device,
                            dtype=torch.int32)
    else:
        sched = cu_q  # unread
    section = _heads_per_section(
        seqlen_k if not varlen else max(seqlen_k // max(B, 1), 1), D,
        q.element_size(), H // Hkv, B * H,
        cfg.l2_kv_bytes) if causal_flag else 1
    _kernels.flash_fwd[grid](
        qd, kd, vd, out, lse, seqlen_q, seqlen_k, H, H // Hkv, m_blocks,
        H * D, qk_scale, max(left, 0), max(right, 0), softcap_scale, cu_q,
        cu_k, float(descale_v), B * H, section, sched, D=D, BN=bn,
        STAGES=cfg.stages, CAUSAL=causal_flag,
        OVERLAP=bool(overlap) and cfg.overlap, PINGPONG=bool(pingpong),
        LOCAL=left >= 0, SOFTCAP=softcap != 0.0, VARLEN=varlen, FP8=fp8,
        PERSISTENT=schedule != "grid", QSTAGES=q_slots,
        DYNAMIC=schedule == "dynamic", P_SMEM=p_smem,
        CONSUMERS=cfg.consumers, O_FROM_REGS=cfg.o_from_regs,
        CONSUMER_BOUNDS=cfg.consumer_bounds, num_warps=4,
        num_warpgroups=1 + cfg.consumers)


def _fwd_config(D, causal, tuning, fp8=False):
    """FWD_CONFIG's entry for (D, causal), with `tuning`'s fields (a dict,
    or None) replacing its own. fp8 takes its own K/V block and ring depth
    (_BLOCK_N, _FP8_STAGES) unless `tuning` names them."""
    cfg = FWD_CONFIG[(D, bool(causal))]
    if fp8:
        cfg = cfg._replace(block_n=_BLOCK_N, stages=_FP8_STAGES[D])
    if not tuning:
        return cfg
    unknown = set(tuning) - set(FwdConfig._fields)
    if unknown:
        raise ValueError(f"tuning: unknown fields {sorted(unknown)} (known: "
                         f"{', '.join(FwdConfig._fields)})")
    cfg = cfg._replace(**tuning)
    if cfg.consumers not in (2, 3):
        raise ValueError(f"tuning: consumers={cfg.consumers} (2 or 3)")
    return cfg


def _fwd_schedule(persistent, cfg, causal):
    """The forward's launch: "grid" (one CTA per work tile), "static" (one
    CTA per SM, tiles dealt round-robin in flash_attn.py tile_at's order)
    or "dynamic" (one CTA per SM, each taking the next tile of that order
    from a global counter when it starts one: FA3's scheduler for causal
    work, whose tiles differ in length). persistent: None (the default,
    cfg.persistent, cfg an FwdConfig), False, True (persistent: dynamic
    for causal work, else static), "static" or "dynamic"."""
    if persistent is None:
        persistent = cfg.persistent
    if persistent in (False, "grid"):
        return "grid"
    if persistent is True:
        return "dynamic" if causal else "static"
    if persistent not in ("static", "dynamic"):
        raise ValueError(f"persistent={persistent!r}: None, False, True, "
                         "'static' or 'dynamic'")
    return persistent


def _num_sms(device):
    index = device.index if device.index is not None else \
        torch.cuda.current_device()
    if index not in _SM_COUNT:
        _SM_COUNT[index] = torch.cuda.get_device_properties(
            index).multi_processor_count
    return _SM_COUNT[index]


def _heads_per_section(seqlen_k, D, elem, group, num_bh, budget=None):
    """How many (batch, head) pairs the persistent causal order takes at a
    time (flash_attn.py tile_at): as many query heads as share the K and
    V that fit `budget` bytes (None: _L2_KV_BYTES), a power of two of kv
    heads (FA3's rule of thumb), times the GQA group, at least one kv
    head."""
    kv_heads = _pow2_fitting(max(seqlen_k, 1) * D * 2 * elem, budget)
    return max(min(kv_heads * group, num_bh), 1)


def _pow2_fitting(unit_bytes, budget=None):
    """The largest power of two of `unit_bytes` units that fits `budget`
    bytes of L2 (None: _L2_KV_BYTES), at least one."""
    units = max((budget or _L2_KV_BYTES) // unit_bytes, 1)
    return 1 << (units.bit_length() - 1)


def _score_scales(scale, softcap):
    """(qk_scale, softcap_scale) for the kernels: with softcap the scores
    are softcap * tanh(s * scale / softcap), the kernel applies tanh(s *
    softcap_scale) and qk_scale (which carries log2(e) for exp2) the
    rest."""
    if softcap != 0.0:
        return softcap * _kernels.LOG2E, scale / softcap
    return scale * _kernels.LOG2E, 1.0


def flash_attn_varlen_forward_into(q, k, v, cu_seqlens_q, cu_seqlens_k,
                                   max_seqlen_q, out, lse, softmax_scale,
                                   causal, window_size=(-1, -1),
                                   softcap=0.0, descale_q=1.0, descale_k=1.0,
                                   descale_v=1.0, persistent=None,
                                   max_ctas=None, tuning=None):
    """The forward kernel on packed sequences: q [total_q, heads, D], k and
    v [total_k, kv_heads, D], sequence b at rows cu_seqlens_q[b] ..
    cu_seqlens_q[b+1]-1 (int32 [batch + 1], cu_seqlens_k for keys), into
    `out` (q's shape; bf16 for float8_e4m3fn inputs, which take the
    descales) and `lse` ([heads, total_q] fp32), both contiguous.
    persistent, max_ctas and tuning as in flash_attn_forward_into."""
    Tq = q.shape[0]
    Tk = k.shape[0]
    B = cu_seqlens_q.numel() - 1
    if Tq == 0 or B <= 0 or max_seqlen_q <= 0:
        return
    if Tk == 0:
        out.zero_()
        lse.fill_(float("-inf"))
        return
    q, k, v = _aligned(q), _aligned(k), _aligned(v)
    cu_q = cu_seqlens_q.to(torch.int32).contiguous()
    cu_k = cu_seqlens_k.to(torch.int32).contiguous()
    _launch_fwd(q, k, v, out, lse, B, Tq, Tk, int(max_seqlen_q), cu_q, cu_k,
                softmax_scale, causal, window_size, softcap,
                descale_q=descale_q, descale_k=descale_k,
                descale_v=descale_v, persistent=persistent,
                max_ctas=max_ctas, tuning=tuning)


@torch.library.custom_op("txl::flash_attn_forward", mutates_args=(),
                         device_types="cuda")
def _flash_attn_forward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
        softmax_scale: float, causal: bool, window_left: int = -1,
        window_right: int = -1,
        softcap: float = 0.0) -> tuple[torch.Tensor, torch.Tensor]:
    B, Sq, H, _ = q.shape
    out = torch.empty_like(q, memory_format=torch.contiguous_format)
    lse = torch.empty((B, H, Sq), device=q.device, dtype=torch.float32)
    flash_attn_forward_into(q, k, v, out, lse, softmax_scale, causal,
                            window_size=(window_left, window_right),
                            softcap=softcap)
    return out, lse


@_flash_attn_forward.register_fake
def _(q, k, v, softmax_scale, causal, window_left=-1, window_right=-1,
      softcap=0.0):
    B, Sq, H, _ = q.shape
    return (torch.empty_like(q, memory_format=torch.contiguous_format),
            q.new_empty((B, H, Sq), dtype=torch.float32))


def flash_attn_backward_into(q, k, v, out, lse, grad_out, dq, dk, dv,
                             softmax_scale, causal, grad_lse=None,
                             dq_tma=True, window_size=(-1, -1),
                             softcap=0.0, pingpong=None, persistent=None,
                             max_ctas=None):
    """The backward kernels into caller-given dq, dk, dv (q's, k's, v's
    shapes, contiguous): the gradients of flash_attn_forward_into's out
    (and, if given, of its lse) for grad_out (and grad_lse). `dq_tma`
    chooses how dQ is accumulated (TMA reduce-add, else red atomics; see
    flash_attn_bwd.py); window_size and softcap as for the forward.
    `pingpong` (None: the default for the head dim) chooses flash_bwd's
    PINGPONG schedule (the consumers take turns at dQ). `persistent`
    (None: the default for the head dim, _BWD_PERSISTENT) launches one
    CTA per SM walking the (key block, kv head) tiles, at most `max_ctas`
    of them if given (tests use a few to give each CTA several tiles), in
    a static order (True or "static") or taking tiles from a counter
    ("dynamic"); False one CTA per tile."""
    B, Sq, H, D = q.shape
    Sk, Hkv = k.shape[1], k.shape[2]
    _check_bwd_head_dim(D)
    if Sq == 0 or Sk == 0:
        for t in (dq, dk, dv):
            t.zero_()
        return
    bm = _bwd_kernels.BM
    sq_pad = (Sq + bm - 1) // bm * bm
    # dQ is accumulated in fp32, each sequence padded to whole query blocks.
    dq_acc = torch.zeros((B, sq_pad, H, D), device=q.device,
                         dtype=torch.float32)
    rows = (B * Sq, B * Sk)
    _launch_bwd(q.reshape(rows[0], H, D), k.reshape(rows[1], Hkv, D),
                v.reshape(rows[1], Hkv, D), out.reshape(rows[0], H, D), lse,
                grad_out.reshape(rows[0], H, D), grad_lse,
                dk.view(rows[1], Hkv, D), dv.view(rows[1], Hkv, D),
                dq_acc.view(B * sq_pad, H, D), B, Sq, Sk, sq_pad,
                sq_pad // bm, (Sk + _bwd_kernels.BN - 1) // _bwd_kernels.BN,
                None, None, softmax_scale, causal, dq_tma, window_size,
                softcap, pingpong, persistent, max_ctas)
    dq.copy_(dq_acc[:, :Sq])


def _check_bwd_head_dim(D):
    if D == 256:
        # Why (flash_attn_bwd.py, "Head dim 256"): each consumer keeps dK
        # and dV of its 64 keys in fp32 registers.
        raise NotImplementedError(
            "txl.ops flash attention backward: head_dim 256 does not fit: "
            "dK and dV of a warpgroup's 64 keys take 2 * 64 * 256 fp32 = "
            "256 registers a thread (a thread has at most 255), and K, V "
            "and a two-stage Q/dO ring take 256 KB of shared memory (227 KB "
            "on Hopper); head_dim 64 and 128 are supported")
    if D not in _BWD_STAGES:
        raise NotImplementedError(
            f"txl.ops flash attention backward: head_dim {D} (64 and 128 "
            "are supported)")


def _launch_bwd(q, k, v, out, lse, grad_out, grad_lse, dk, dv, dq_acc, B,
                seqlen_q, seqlen_k, sq_pad, q_blocks, k_blocks, cu_q, cu_k,
                softmax_scale, causal, dq_tma, window_size, softcap,
                pingpong=None, persistent=None, max_ctas=None):
    """The preprocess and flash_bwd (python/txl/ops/flash_attn_bwd.py) on
    packed rows: q/out/grad_out [rows_q, H, D], k/v/dk/dv [rows_k, Hkv,
    D], dq_acc fp32 [rows of dQ, H, D] (zeroed; every query block a CTA
    touches inside it); cu_q/cu_k (int32 [B + 1]) for packed sequences,
    else None (sequence b at row b * seqlen). q_blocks and k_blocks are the
    grid: query blocks of the longest sequence (dense: sq_pad / BM) and
    its key blocks. sq_pad is the LSE2/delta row length (flash_attn_bwd
    `sequence`). persistent and max_ctas as in flash_attn_backward_into:
    the persistent launch walks the grid's k_blocks * B * Hkv tiles on
    min(tiles, max_ctas or the SM count) CTAs."""
    from .. import TensorDescriptor
    H, D = q.shape[1], q.shape[2]
    Hkv = k.shape[1]
    varlen = cu_q is not None
    q, k, v = _aligned(q), _aligned(k), _aligned(v)
    out, grad_out = _aligned(out), _aligned(grad_out)
    lse = lse.contiguous()
    stats = torch.empty((2, B * H if not varlen else H, sq_pad),
                        device=q.device, dtype=torch.float32)
    lse2, delta = stats[0], stats[1]
    has_dlse = grad_lse is not None
    bm = _bwd_kernels.BM
    if not varlen:
        cu_q = cu_k = lse  # unread
    _bwd_kernels.bwd_preprocess[(q_blocks, B * H)](
        out, grad_out, lse, grad_lse.contiguous() if has_dlse else lse, lse2,
        delta, seqlen_q, sq_pad, H, H * D, cu_q, D=D, BLK=bm,
        HAS_DLSE=has_dlse, VARLEN=varlen, num_warps=4)
    hn = _bwd_kernels.HN
    rows_q, rows_k = q.shape[0], k.shape[0]
    qd = TensorDescriptor.from_tensor(q.view(rows_q, H * D), [bm, D])
    dod = TensorDescriptor.from_tensor(grad_out.view(rows_q, H * D), [bm, D])
    kd = TensorDescriptor.from_tensor(k.view(rows_k, Hkv * D), [hn, D])
    kqd = TensorDescriptor.from_tensor(k.view(rows_k, Hkv * D),
                                       [hn, D // 2])
    vd = TensorDescriptor.from_tensor(v.view(rows_k, Hkv * D), [hn, D])
    dqd = TensorDescriptor.from_tensor(
        dq_acc.view(dq_acc.shape[0], H * D), [bm, D // 2])
    # LSE2 and delta travel with Q and dO (TMA, BM at a time) from the
    # flat statistics: delta is stats[0].numel() elements after LSE2.
    statsd = TensorDescriptor.from_tensor(stats.view(-1), [bm])
    left, right = _window(causal, window_size)
    qk_scale, softcap_scale = _score_scales(softmax_scale, softcap)
    causal_flag = right >= 0
    schedule = _bwd_schedule(persistent, D)
    if schedule != "grid":
        tiles = k_blocks * B * Hkv
        grid = (max(min(tiles, max_ctas or _num_sms(q.device)), 1),)
        section = _bwd_heads_per_section(
            seqlen_q if not varlen else max(seqlen_q // max(B, 1), 1), D,
            q.element_size(), H // Hkv, B * Hkv) if causal_flag else 1
        sched = dict(PERSISTENT=True, num_bh=B * Hkv, k_blocks=k_blocks,
                     section=section)
        if schedule == "dynamic":
            # [0]: the tile counter (zero at launch), then each CTA's slot
            # for the tile number its producer hands its consumers.
            sched.update(DYNAMIC=True, sched_ptr=torch.zeros(
                1 + grid[0], device=q.device, dtype=torch.int32))
    else:
        grid = (k_blocks, B * Hkv)
        sched = {}
    _bwd_kernels.flash_bwd[grid](
        qd, kd, vd, kqd, dod, dqd, dk, dv, statsd, lse2.numel(), dq_acc,
        seqlen_q, seqlen_k, sq_pad, H, Hkv, H // Hkv, qk_scale, softmax_scale,
        max(left, 0), max(right, 0), softcap_scale, cu_q, cu_k, D=D,
        STAGES=_BWD_STAGES[D], CAUSAL=causal_flag, DQ_TMA=bool(dq_tma),
        LOCAL=left >= 0, SOFTCAP=softcap != 0.0, VARLEN=varlen,
        FOLD_LSE=abs(qk_scale) > 1e-30,
        PINGPONG=_BWD_PINGPONG[D] if pingpong is None else bool(pingpong),
        DQ_FIRST=_BWD_DQ_FIRST[D], **sched,
        num_warps=4, num_warpgroups=3)


def _bwd_schedule(persistent, D):
    """The backward's launch: "grid" (one CTA per tile), "static" (one CTA
    per SM, tiles dealt round-robin in flash_attn_bwd.py tile_at's order)
    or "dynamic" (one CTA per SM, each taking the next tile of that order
    from a counter when it starts one). persistent: None (the default for
    head dim D, _BWD_PERSISTENT), False, True ("static"), "static" or
    "dynamic"."""
    if persistent is None:
        persistent = _BWD_PERSISTENT[D]
    if persistent in (False, "grid"):
        return "grid"
    if persistent is True:
        return "static"
    if persistent not in ("static", "dynamic"):
        raise ValueError(f"persistent={persistent!r}: None, False, True, "
                         "'static' or 'dynamic'")
    return persistent


def _bwd_heads_per_section(seqlen_q, D, elem, group, num_bh, budget=None):
    """How many (batch, kv head) pairs the backward's persistent causal
    order takes at a time (flash_attn_bwd.py tile_at): as many as have
    their Q, dO (elem bytes each) and fp32 dQ accumulator, over the GQA
    group's query heads, in `budget` bytes of L2 (None: _L2_KV_BYTES), a
    power of two, at least one."""
    pairs = _pow2_fitting(max(seqlen_q, 1) * D * group * (2 * elem + 4),
                          budget)
    return max(min(pairs, num_bh), 1)


def flash_attn_varlen_backward_into(q, k, v, out, lse, grad_out,
                                    cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                                    max_seqlen_k, dq, dk, dv, softmax_scale,
                                    causal, grad_lse=None, dq_tma=True,
                                    window_size=(-1, -1), softcap=0.0,
                                    pingpong=None, persistent=None,
                                    max_ctas=None):
    """The backward of flash_attn_varlen_forward_into: q/out/grad_out/dq
    [total_q, heads, D], k/v/dk/dv [total_k, kv_heads, D] (dq, dk, dv
    contiguous), lse (and grad_lse) [heads, total_q] fp32; cu_seqlens and
    max_seqlen as for the forward (pingpong, persistent and max_ctas as
    for flash_attn_backward_into). Every row of dq is written, and every
    row of dk and dv inside cu_seqlens_k[0] .. cu_seqlens_k[-1]-1 (the
    others are left as they are)."""
    Tq, H, D = q.shape
    Tk = k.shape[0]
    B = cu_seqlens_q.numel() - 1
    _check_bwd_head_dim(D)
    if Tq == 0 or Tk == 0 or B <= 0 or max_seqlen_q <= 0 or \
            max_seqlen_k <= 0:
        for t in (dq, dk, dv):
            t.zero_()
        return
    bm, bn = _bwd_kernels.BM, _bwd_kernels.BN
    # One query block of padding per sequence for LSE2/delta, and one at
    # the end of dQ (the last sequence's last block reaches past it).
    dq_acc = torch.zeros((Tq + bm, H, D), device=q.device,
                         dtype=torch.float32)
    _launch_bwd(q, k, v, out, lse, grad_out, grad_lse, dk, dv, dq_acc, B,
                Tq, Tk, (Tq + B * bm + bm - 1) // bm * bm,
                (int(max_seqlen_q) + bm - 1) // bm,
                (int(max_seqlen_k) + bn - 1) // bn,
                cu_seqlens_q.to(torch.int32).contiguous(),
                cu_seqlens_k.to(torch.int32).contiguous(), softmax_scale,
                causal, dq_tma, window_size, softcap, pingpong, persistent,
                max_ctas)
    dq.copy_(dq_acc[:Tq])


@torch.library.custom_op("txl::flash_attn_backward", mutates_args=(),
                         device_types="cuda")
def _flash_attn_backward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
        lse: torch.Tensor, grad_out: torch.Tensor,
        grad_lse: Optional[torch.Tensor], softmax_scale: float,
        causal: bool, window_left: int = -1, window_right: int = -1,
        softcap: float = 0.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    dq = torch.empty_like(q, memory_format=torch.contiguous_format)
    dk = torch.empty_like(k, memory_format=torch.contiguous_format)
    dv = torch.empty_like(v, memory_format=torch.contiguous_format)
    flash_attn_backward_into(q, k, v, out, lse, grad_out, dq, dk, dv,
                             softmax_scale, causal, grad_lse,
                             window_size=(window_left, window_right),
                             softcap=softcap)
    return dq, dk, dv


@_flash_attn_backward.register_fake
def _(q, k, v, out, lse, grad_out, grad_lse, softmax_scale, causal,
      window_left=-1, window_right=-1, softcap=0.0):
    return tuple(torch.empty_like(t, memory_format=torch.contiguous_format)
                 for t in (q, k, v))


def _setup_context(ctx, inputs, output):
    q, k, v, softmax_scale, causal = inputs[:5]
    window_left, window_right, softcap = (tuple(inputs[5:]) +
                                          (-1, -1, 0.0)[len(inputs) - 5:])
    out, lse = output
    ctx.save_for_backward(q, k, v, out, lse)
    ctx.softmax_scale = softmax_scale
    ctx.causal = causal
    ctx.n_inputs = len(inputs)
    ctx.window = (window_left, window_right)
    ctx.softcap = softcap
    # An unused LSE gives grad_lse None, not a tensor of zeros to read.
    ctx.set_materialize_grads(False)


def _backward(ctx, grad_out, grad_lse):
    q, k, v, out, lse = ctx.saved_tensors
    if grad_out is None:
        grad_out = torch.zeros_like(out)
    dq, dk, dv = _flash_attn_backward(q, k, v, out, lse, grad_out, grad_lse,
                                      ctx.softmax_scale, ctx.causal,
                                      *ctx.window, ctx.softcap)
    return (dq, dk, dv) + (None,) * (ctx.n_inputs - 3)


_flash_attn_forward.register_autograd(_backward, setup_context=_setup_context)


@torch.library.custom_op("txl::flash_attn_varlen_forward", mutates_args=(),
                         device_types="cuda")
def _flash_attn_varlen_forward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
        cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor,
        max_seqlen_q: int, softmax_scale: float, causal: bool,
        window_left: int, window_right: int, softcap: float,
        max_seqlen_k: int = -1) -> tuple[torch.Tensor, torch.Tensor]:
    # max_seqlen_k: for the backward (-1: computed there from
    # cu_seqlens_k).
    Tq, H, _ = q.shape
    out = torch.empty_like(q, memory_format=torch.contiguous_format)
    lse = torch.empty((H, Tq), device=q.device, dtype=torch.float32)
    flash_attn_varlen_forward_into(q, k, v, cu_seqlens_q, cu_seqlens_k,
                                   max_seqlen_q, out, lse, softmax_scale,
                                   causal, (window_left, window_right),
                                   softcap)
    return out, lse


@_flash_attn_varlen_forward.register_fake
def _(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale,
      causal, window_left, window_right, softcap, max_seqlen_k=-1):
    Tq, H, _ = q.shape
    return (torch.empty_like(q, memory_format=torch.contiguous_format),
            q.new_empty((H, Tq), dtype=torch.float32))


@torch.library.custom_op("txl::flash_attn_varlen_backward", mutates_args=(),
                         device_types="cuda")
def _flash_attn_varlen_backward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
        lse: torch.Tensor, grad_out: torch.Tensor,
        grad_lse: Optional[torch.Tensor], cu_seqlens_q: torch.Tensor,
        cu_seqlens_k: torch.Tensor, max_seqlen_q: int, max_seqlen_k: int,
        softmax_scale: float, causal: bool, window_left: int,
        window_right: int,
        softcap: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    dq = torch.empty_like(q, memory_format=torch.contiguous_format)
    # Zeros: key rows outside cu_seqlens_k[0] .. cu_seqlens_k[-1]-1 belong
    # to no sequence, and the kernel writes only the others.
    dk = torch.zeros_like(k, memory_format=torch.contiguous_format)
    dv = torch.zeros_like(v, memory_format=torch.contiguous_format)
    if max_seqlen_k < 0:
        max_seqlen_k = int((cu_seqlens_k[1:] - cu_seqlens_k[:-1]).max())
    flash_attn_varlen_backward_into(
        q, k, v, out, lse, grad_out, cu_seqlens_q, cu_seqlens_k,
        max_seqlen_q, max_seqlen_k, dq, dk, dv, softmax_scale, causal,
        grad_lse, window_size=(window_left, window_right), softcap=softcap)
    return dq, dk, dv


@_flash_attn_varlen_backward.register_fake
def _(q, k, v, out, lse, grad_out, grad_lse, cu_seqlens_q, cu_seqlens_k,
      max_seqlen_q, max_seqlen_k, softmax_scale, causal, window_left,
      window_right, softcap):
    return tuple(torch.empty_like(t, memory_format=torch.contiguous_format)
                 for t in (q, k, v))


def _varlen_setup_context(ctx, inputs, output):
    q, k, v, cu_q, cu_k = inputs[:5]
    ctx.save_for_backward(q, k, v, output[0], output[1], cu_q, cu_k)
    ctx.args = tuple(inputs[5:]) + (-1,) * (12 - len(inputs))
    ctx.n_inputs = len(inputs)
    ctx.set_materialize_grads(False)


def _varlen_backward(ctx, grad_out, grad_lse):
    q, k, v, out, lse, cu_q, cu_k = ctx.saved_tensors
    (max_seqlen_q, softmax_scale, causal, window_left, window_right, softcap,
     max_seqlen_k) = ctx.args
    if grad_out is None:
        grad_out = torch.zeros_like(out)
    dq, dk, dv = _flash_attn_varlen_backward(
        q, k, v, out, lse, grad_out, grad_lse, cu_q, cu_k, max_seqlen_q,
        max_seqlen_k, softmax_scale, causal, window_left, window_right,
        softcap)
    return (dq, dk, dv) + (None,) * (ctx.n_inputs - 3)


_flash_attn_varlen_forward.register_autograd(
    _varlen_backward, setup_context=_varlen_setup_context)


@torch.library.custom_op("txl::flash_attn_fp8_varlen_forward",
                         mutates_args=(), device_types="cuda")
def _flash_attn_fp8_varlen_forward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
        cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor,
        max_seqlen_q: int, softmax_scale: float, causal: bool,
        window_left: int, window_right: int, softcap: float,
        descale_q: float, descale_k: float,
        descale_v: float) -> tuple[torch.Tensor, torch.Tensor]:
    Tq, H, _ = q.shape
    out = torch.empty(q.shape, device=q.device, dtype=torch.bfloat16)
    lse = torch.empty((H, Tq), device=q.device, dtype=torch.float32)
    flash_attn_varlen_forward_into(q, k, v, cu_seqlens_q, cu_seqlens_k,
                                   max_seqlen_q, out, lse, softmax_scale,
                                   causal, (window_left, window_right),
                                   softcap, descale_q, descale_k, descale_v)
    return out, lse


@_flash_attn_fp8_varlen_forward.register_fake
def _(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale,
      causal, window_left, window_right, softcap, descale_q, descale_k,
      descale_v):
    Tq, H, _ = q.shape
    return (q.new_empty(q.shape, dtype=torch.bfloat16),
            q.new_empty((H, Tq), dtype=torch.float32))


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                           max_seqlen_k, softmax_scale=None, causal=False,
                           window_size=(-1, -1), softcap=0.0,
                           return_lse=False, descale_q=None, descale_k=None,
                           descale_v=None):
    """flash_attn_func on packed variable-length sequences (flash-attn's
    varlen API): q [total_q, heads, head_dim], k and v [total_k, kv_heads,
    head_dim]; sequence b is rows cu_seqlens_q[b] .. cu_seqlens_q[b+1]-1
    of q (cu_seqlens_k[b] .. of k and v), cu_seqlens int32 [batch + 1]
    starting at 0; max_seqlen_q/k bound the lengths. Returns out (q's
    shape) and, with return_lse, the LSE [heads, total_q] fp32.
    float8_e4m3fn q, k, v take descale_q/k/v and give a bf16 out, as in
    flash_attn_func."""
    if q.dim() != 3 or k.dim() != 3 or v.dim() != 3:
        raise ValueError("flash_attn_varlen_func: q, k, v must be [total, "
                         "heads, head_dim]")
    _check(q[None], k[None], v[None])
    if cu_seqlens_q.dim() != 1 or cu_seqlens_q.shape != cu_seqlens_k.shape:
        raise ValueError("flash_attn_varlen_func: cu_seqlens_q and "
                         "cu_seqlens_k must be [batch + 1]")
    if softcap < 0.0:
        raise ValueError(f"flash_attn_varlen_func: softcap must be >= 0, "
                         f"got {softcap}")
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(q.shape[-1])
    left, right = (int(w) for w in window_size)
    args = (q, k, v, cu_seqlens_q, cu_seqlens_k, int(max_seqlen_q),
            float(softmax_scale), bool(causal), left, right, float(softcap))
    if q.dtype == _FP8:
        _check_fp8_head_dim(q, "flash_attn_varlen_func")
        out, lse = _flash_attn_fp8_varlen_forward(
            *args, *_fp8_descales(descale_q, descale_k, descale_v))
    else:
        _no_descales(descale_q, descale_k, descale_v, "flash_attn_varlen_func")
        out, lse = _flash_attn_varlen_forward(*args, int(max_seqlen_k))
    return (out, lse) if return_lse else out


def _no_descales(descale_q, descale_k, descale_v, api):
    if not (descale_q is None and descale_k is None and descale_v is None):
        raise ValueError(f"{api}: descale_q/k/v apply to float8_e4m3fn "
                         "inputs only")


def _descale(value, name):
    """A per-tensor descale factor as a float (None: 1.0); a tensor must
    hold one element (per-head descales are not implemented)."""
    if value is None:
        return 1.0
    if isinstance(value, torch.Tensor):
        if value.numel() != 1:
            raise NotImplementedError(
                f"flash_attn_func: {name} must be one factor per tensor, got "
                f"shape {tuple(value.shape)}")
        return float(value.reshape(()).item())
    return float(value)


def transpose_v_fp8(v, cu_seqlens_k, permute_keys=True):
    """v [rows, kv_heads, head_dim] (sequence b at rows cu_seqlens_k[b] ..
    cu_seqlens_k[b+1]-1) -> V^T [kv_heads * head_dim, columns], the
    K-major layout the fp8 kernel's P V reads: key r of kv head h is a
    column of rows h * D .. h * D + D - 1, sequence b's keys from column
    ((cu_seqlens_k[b] + 31) // 32 + b) * 32 on (flash_attn.py's vt_start:
    TMA boxes start 16-byte aligned, and a sequence's groups of 32 keys
    start at multiples of 32), zeros elsewhere. With permute_keys the keys
    of each group of 32 of a sequence are in txl.acc_to_dot_a's order
    (column c of a group holds key acc_to_dot_a_columns(8)[c]), the order
    in which the kernel's P, kept in registers, reaches the P V wgmma."""
    from ..layouts import acc_to_dot_a_columns
    rows, Hkv, D = v.shape
    B = cu_seqlens_k.numel() - 1
    width = ((rows + 31) // 32 + B) * 32
    vt = torch.zeros((Hkv * D, width), device=v.device, dtype=torch.uint8)
    cu = cu_seqlens_k.to(device=v.device, dtype=torch.int64)
    r = torch.arange(rows, device=v.device, dtype=torch.int64)
    seq = torch.searchsorted(cu[1:].contiguous(), r, right=True)
    seq = seq.clamp_(max=B - 1)
    start = ((cu[:-1] + 31) // 32 + torch.arange(B, device=v.device)) * 32
    key = r - cu[:-1][seq]  # the key's index within its sequence
    if permute_keys:
        order = torch.tensor(acc_to_dot_a_columns(8), device=v.device)
        place = torch.empty_like(order)
        place[order] = torch.arange(32, device=v.device)
        key = key - key % 32 + place[key % 32]
    cols = start[seq] + key
    # Through uint8 views: index_put is not implemented for float8 types.
    vt[:, cols] = v.reshape(rows, Hkv * D).view(torch.uint8).t()
    return vt.view(v.dtype)


def flash_attn_fp8_forward_into(q, k, v, out, lse, softmax_scale, causal,
                                descale_q=1.0, descale_k=1.0, descale_v=1.0,
                                window_size=(-1, -1), softcap=0.0,
                                persistent=None, max_ctas=None, tuning=None):
    """The fp8 forward into caller-given `out` (bf16, q's shape,
    contiguous) and `lse` ([batch, heads, seqlen_q] fp32, contiguous);
    q, k, v float8_e4m3fn [batch, seqlen, heads, head_dim]; window_size
    and softcap as in flash_attn_func; persistent, max_ctas and tuning as
    in flash_attn_forward_into (block_n and stages default to the fp8
    kernel's own, _BLOCK_N and _FP8_STAGES)."""
    _forward_dense(q, k, v, out, lse, softmax_scale, causal, window_size,
                   softcap, descale_q=descale_q, descale_k=descale_k,
                   descale_v=descale_v, persistent=persistent,
                   max_ctas=max_ctas, tuning=tuning)


@torch.library.custom_op("txl::flash_attn_fp8_forward", mutates_args=(),
                         device_types="cuda")
def _flash_attn_fp8_forward(
        q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
        softmax_scale: float, causal: bool, descale_q: float,
        descale_k: float, descale_v: float, window_left: int = -1,
        window_right: int = -1,
        softcap: float = 0.0) -> tuple[torch.Tensor, torch.Tensor]:
    B, Sq, H, _ = q.shape
    out = torch.empty(q.shape, device=q.device, dtype=torch.bfloat16)
    lse = torch.empty((B, H, Sq), device=q.device, dtype=torch.float32)
    flash_attn_fp8_forward_into(q, k, v, out, lse, softmax_scale, causal,
                                descale_q, descale_k, descale_v,
                                (window_left, window_right), softcap)
    return out, lse


@_flash_attn_fp8_forward.register_fake
def _(q, k, v, softmax_scale, causal, descale_q, descale_k, descale_v,
      window_left=-1, window_right=-1, softcap=0.0):
    B, Sq, H, _ = q.shape
    return (q.new_empty(q.shape, dtype=torch.bfloat16),
            q.new_empty((B, H, Sq), dtype=torch.float32))


def _check_fp8_head_dim(q, api):
    if q.shape[-1] not in _FP8_STAGES:
        raise NotImplementedError(
            f"{api}: fp8 head_dim {q.shape[-1]} (64 and 128 are supported)")


def _fp8_descales(descale_q, descale_k, descale_v):
    return (_descale(descale_q, "descale_q"),
            _descale(descale_k, "descale_k"),
            _descale(descale_v, "descale_v"))


def _flash_attn_fp8(q, k, v, softmax_scale, causal, window_size, softcap,
                    return_lse, descale_q, descale_k, descale_v):
    _check_fp8_head_dim(q, "flash_attn_func")
    left, right = (int(w) for w in window_size)
    out, lse = _flash_attn_fp8_forward(
        q, k, v, float(softmax_scale), bool(causal),
        *_fp8_descales(descale_q, descale_k, descale_v), left, right,
        float(softcap))
    return (out, lse) if return_lse else out


def flash_attn_func(q, k, v, softmax_scale=None, causal=False,
                    window_size=(-1, -1), softcap=0.0, return_lse=False,
                    descale_q=None, descale_k=None, descale_v=None):
    """softmax(q k^T * softmax_scale) v per head (flash-attn's API and
    layout); softmax_scale defaults to 1/sqrt(head_dim). window_size =
    (left, right) limits query i to keys i + seqlen_k - seqlen_q - left ..
    i + seqlen_k - seqlen_q + right (-1: unbounded; causal sets right =
    0); softcap > 0 replaces each scaled score s by softcap * tanh(s /
    softcap). With return_lse,
    also the log-sum-exp of each row's scaled scores, [batch, heads,
    seqlen_q] fp32 (-inf for a row that sees no key).

    float8_e4m3fn q, k, v: the fp8 forward, bf16 output; descale_q,
    descale_k, descale_v are per-tensor factors (float or one-element
    tensor, default 1) the fp8 values are multiplied by; the scores use
    them and softmax_scale, and the LSE is of the descaled scores."""
    _check(q, k, v)
    if len(tuple(window_size)) != 2:
        raise ValueError("flash_attn_func: window_size is (left, right)")
    if softcap < 0.0:
        raise ValueError(f"flash_attn_func: softcap must be >= 0, got "
                         f"{softcap}")
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(q.shape[-1])
    if q.dtype == _FP8:
        return _flash_attn_fp8(q, k, v, softmax_scale, causal, window_size,
                               softcap, return_lse, descale_q, descale_k,
                               descale_v)
    _no_descales(descale_q, descale_k, descale_v, "flash_attn_func")
    left, right = (int(w) for w in window_size)
    out, lse = _flash_attn_forward(q, k, v, float(softmax_scale),
                                   bool(causal), left, right, float(softcap))
    return (out, lse) if return_lse else out
