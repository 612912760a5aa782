"""Ready-made kernels written in txl, callable from PyTorch.

    import txl.ops
    out = txl.ops.flash_attn_func(q, k, v, causal=True)

`flash_attn_func` follows flash-attn's convention: q [batch, seqlen_q,
heads, head_dim], k and v [batch, seqlen_k, kv_heads, head_dim] (kv_heads
divides heads: GQA/MQA), fp16 or bf16, head_dim 64 or 128. It is the
custom op `txl::flash_attn_forward` (torch.library), so torch.compile
treats it as one opaque op. The kernel (python/txl/ops/flash_attn.py)
compiles on first use per (dtype, head_dim, causal) and is cached like
any txl kernel.

DeepSeek MLA (python/txl/ops/mla.py, FlashMLA's interface):
`get_mla_metadata` + `flash_mla_with_kvcache` decode against a paged KV
cache (custom op `txl::flash_mla_with_kvcache`), and
`flash_mla_sparse_fwd` is the top-k sparse prefill
(`txl::flash_mla_sparse_fwd`). Both take 576-wide q/k with V = the first
512 channels; see _mla.py for shapes and conventions.

Not implemented yet (each raises NotImplementedError): the backward pass,
sliding windows (window_size other than (-1, -1)), softcap, fp8, and
head dims other than 64 and 128; varlen batches have no entry point yet.
"""
import math

import torch

from . import flash_attn as _kernels
from ._mla import (flash_mla_sparse_fwd, flash_mla_with_kvcache,
                   get_mla_metadata)

__all__ = ["flash_attn_func", "flash_attn_forward_into",
           "flash_mla_sparse_fwd", "flash_mla_with_kvcache",
           "get_mla_metadata"]

_BLOCK_M = 128   # query rows per CTA (two consumer warpgroups of 64)
_BLOCK_N = 128   # keys per block
_STAGES = {64: 3, 128: 2}  # K/V ring depth that fits shared memory


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
    if q.dtype not in (torch.float16, torch.bfloat16) or \
            k.dtype != q.dtype or v.dtype != q.dtype:
        raise NotImplementedError(
            "flash_attn_func: q, k, v must all be fp16 or all bf16, got "
            f"{q.dtype}, {k.dtype}, {v.dtype}")
    B, _, H, D = q.shape
    if k.shape != v.shape or k.shape[0] != B or k.shape[3] != D:
        raise ValueError(f"flash_attn_func: k {tuple(k.shape)} and v "
                         f"{tuple(v.shape)} do not match q {tuple(q.shape)}")
    if D not in _STAGES:
        raise NotImplementedError(
            f"flash_attn_func: head_dim {D} (64 and 128 are supported)")
    if H % k.shape[2]:
        raise ValueError(f"flash_attn_func: kv heads {k.shape[2]} must "
                         f"divide query heads {H}")


def flash_attn_forward_into(q, k, v, out, lse, softmax_scale, causal,
                            overlap=True, pingpong=True):
    """The forward kernel into caller-given `out` (q's shape, contiguous)
    and `lse` ([batch, heads, seqlen_q] fp32, contiguous). `overlap` and
    `pingpong` choose the schedule (see flash_attn.py)."""
    from .. import TensorDescriptor
    B, Sq, H, D = q.shape
    Sk, Hkv = k.shape[1], k.shape[2]
    if Sq == 0:
        return
    if Sk == 0:
        out.zero_()
        lse.fill_(float("-inf"))
        return
    q, k, v = _aligned(q), _aligned(k), _aligned(v)
    qd = TensorDescriptor.from_tensor(q.view(B * Sq, H * D), [64, D])
    kd = TensorDescriptor.from_tensor(k.view(B * Sk, Hkv * D),
                                      [_BLOCK_N, D])
    vd = TensorDescriptor.from_tensor(v.view(B * Sk, Hkv * D),
                                      [_BLOCK_N, D])
    m_blocks = (Sq + _BLOCK_M - 1) // _BLOCK_M
    _kernels.flash_fwd[(m_blocks, B * H)](
        qd, kd, vd, out, lse, Sq, Sk, H, H // Hkv, m_blocks, H * D,
        softmax_scale * _kernels.LOG2E, D=D, BN=_BLOCK_N,
        STAGES=_STAGES[D], CAUSAL=bool(causal), OVERLAP=bool(overlap),
        PINGPONG=bool(pingpong), num_warps=4, num_warpgroups=3)


@torch.library.custom_op("txl::flash_attn_forward", mutates_args=(),
                         device_types="cuda")
def _flash_attn_forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                        softmax_scale: float,
                        causal: bool) -> tuple[torch.Tensor, torch.Tensor]:
    B, Sq, H, _ = q.shape
    out = torch.empty_like(q, memory_format=torch.contiguous_format)
    lse = torch.empty((B, H, Sq), device=q.device, dtype=torch.float32)
    flash_attn_forward_into(q, k, v, out, lse, softmax_scale, causal)
    return out, lse


@_flash_attn_forward.register_fake
def _(q, k, v, softmax_scale, causal):
    B, Sq, H, _ = q.shape
    return (torch.empty_like(q, memory_format=torch.contiguous_format),
            q.new_empty((B, H, Sq), dtype=torch.float32))


def _setup_context(ctx, inputs, output):
    pass


def _backward(ctx, grad_out, grad_lse):
    raise NotImplementedError(
        "txl.ops.flash_attn_func: the backward pass is not implemented yet")


_flash_attn_forward.register_autograd(_backward, setup_context=_setup_context)


def flash_attn_func(q, k, v, softmax_scale=None, causal=False,
                    window_size=(-1, -1), softcap=0.0, return_lse=False):
    """softmax(q k^T * softmax_scale) v per head (flash-attn's API and
    layout); softmax_scale defaults to 1/sqrt(head_dim). With return_lse,
    also the log-sum-exp of each row's scaled scores, [batch, heads,
    seqlen_q] fp32 (-inf for a row that sees no key)."""
    _check(q, k, v)
    if tuple(window_size) != (-1, -1):
        raise NotImplementedError(
            "flash_attn_func: sliding windows are not implemented yet")
    if softcap != 0.0:
        raise NotImplementedError(
            "flash_attn_func: softcap is not implemented yet")
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(q.shape[-1])
    out, lse = _flash_attn_forward(q, k, v, float(softmax_scale),
                                   bool(causal))
    return (out, lse) if return_lse else out
