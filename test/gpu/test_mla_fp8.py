"""txl.ops MLA decoding against an fp8 KV cache (python/txl/ops/mla_fp8.py,
FlashMLA's 656-byte "FP8 with scale" format) on the GPU.

The reference is test_mla.py's fp32 one run on the *dequantized* cache
(dequantize_mla_kv_cache: each nope channel bf16(e4m3 * bf16(scale)), the
value the kernel computes with, independently re-derived here from the
bytes), so the tolerance measures only the kernel's own rounding (P in
bf16, fp32 accumulation order, ex2.approx): the bf16 kernel's, atol = rtol
= 2e-2 on O (|O| <= max |V| ~ 4) and 2e-3 / 1e-3 on the LSE. Batches 1, 4
and 33, ragged cache_seqlens (1, 63, 64, 65, ...), s_q 1 and 2, causal,
h_q 16, 64 and 128, shuffled block tables, power-of-two and arbitrary
scales, NaN / garbage past seqlen, clusters; the output sits inside a
NaN-filled buffer and the LSE is NaN-filled before launch."""

import pytest
import torch

from conftest import real_compiler
from test_mla import make_cache, ragged, reference

pytestmark = real_compiler

import txl.ops  # noqa: E402
from txl.ops import _mla  # noqa: E402

PAGE = 64


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the MLA kernel needs sm_90a")


def dequantize(k8):
    """The cache the kernel computes with, from the 656 bytes a token:
    e4m3 x bf16(scale) rounded to bf16, the rope as stored."""
    raw = k8.view(torch.uint8).reshape(-1, 656)
    x = raw[:, :512].contiguous().view(torch.float8_e4m3fn).float()
    s = raw[:, 512:528].contiguous().view(torch.float32)
    s = s.bfloat16().float().repeat_interleave(128, dim=1)
    rope = raw[:, 528:].contiguous().view(torch.bfloat16).float()
    k = torch.cat([(x * s).bfloat16().float(), rope], dim=1)
    return k.reshape(k8.shape[0], PAGE, 1, 576)


def garbage_tail(k8, table, seqlens):
    """Slots past seqlen in each last page: NaN scales, e4m3 NaN codes and
    NaN rope, as a reused pool may hold."""
    raw = k8.view(torch.uint8)
    for b, n in enumerate(seqlens):
        if n % PAGE:
            page = int(table[b, (n - 1) // PAGE])
            raw[page, n % PAGE:, 0, :512] = 0x7f
            raw[page, n % PAGE:, 0, 512:] = 0xff  # fp32 / bf16 NaN bytes


def run(seqlens, Sq, H, causal, seed=0, cluster=None, pow2=True,
        nan_tail=False, spread=1.0, prefetch=None):
    gen = torch.Generator(device="cuda").manual_seed(seed + len(seqlens))
    B = len(seqlens)
    k_cache, table = make_cache(seqlens, torch.bfloat16, gen)
    if spread != 1.0:  # channels of very different magnitudes
        k_cache = k_cache * torch.logspace(
            -2, 2, 576, base=spread, device="cuda").bfloat16()
    k8 = _mla.quantize_mla_kv_cache(k_cache, pow2_scales=pow2)
    if nan_tail:
        garbage_tail(k8, table, seqlens)
    q = torch.randn((B, Sq, H, 576), device="cuda",
                    generator=gen).bfloat16()
    lens = torch.tensor(seqlens, dtype=torch.int32, device="cuda")
    meta, splits = txl.ops.get_mla_metadata(lens, Sq * H, 1)
    scale = 576 ** -0.5
    n = B * Sq * H * 512
    big = torch.full((n + 4096,), float("nan"), device="cuda",
                     dtype=torch.bfloat16)
    out = big[:n].view(B, Sq, H, 512)
    lse = torch.full((B, H, Sq), float("nan"), device="cuda")
    _mla.flash_mla_fp8_into(q, k8, table, lens, meta, splits, scale, causal,
                            out, lse, cluster=cluster, prefetch=prefetch)
    torch.cuda.synchronize()
    kv = dequantize(k8)
    want, want_lse = reference(q, kv, table, lens, scale, causal)
    ref_scale = max(1.0, want.abs().max().item() / 4)
    tol = 2e-2 * ref_scale
    torch.testing.assert_close(out.float(), want, atol=tol, rtol=2e-2)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)
    assert torch.isnan(big[n:]).all(), "a store past the output"
    return kv


def test_dequantize_matches_helper():
    """The test's own byte-level dequantization and the package's agree,
    and quantizing then dequantizing stays within e4m3's precision."""
    gen = torch.Generator(device="cuda").manual_seed(1)
    k = torch.randn((5, PAGE, 1, 576), device="cuda", generator=gen)
    for pow2 in (True, False):
        k8 = _mla.quantize_mla_kv_cache(k.bfloat16(), pow2_scales=pow2)
        assert k8.shape == (5, PAGE, 1, 656)
        assert k8.dtype == torch.float8_e4m3fn
        mine = dequantize(k8)
        theirs = _mla.dequantize_mla_kv_cache(k8).float()
        torch.testing.assert_close(mine, theirs, atol=0, rtol=0)
        err = (mine - k.bfloat16().float()).abs()
        amax = k.abs().amax()
        assert err[..., :512].max() <= amax / 8, "e4m3 rounding"
        assert torch.equal(mine[..., 512:], k.bfloat16().float()[..., 512:])


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq", [1, 2])
@pytest.mark.parametrize("B", [1, 4, 33])
def test_batches(B, Sq, causal):
    run(ragged(B, B), Sq, 128, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("H", [16, 64, 128])
def test_heads(H, causal):
    run(ragged(9, H), 2, H, causal)


@pytest.mark.parametrize("seqlen", [1, 2, 31, 32, 33, 63, 64, 65, 129, 4096,
                                    9001])
def test_one_entry(seqlen):
    """One long or short entry: split over all parts, or none (31, 32, 33,
    63, 64, 65 end before, on and after the middle and the end of a
    page)."""
    run([seqlen], 1, 64, False)
    run([seqlen, 3], 2, 16, True)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_one_page_entries(causal):
    """Many entries of one page or less: warpgroup 2 dequantizes two pages
    ahead, so its cursor runs into the entry after next while warpgroup 1
    still works on the current one (the pages must not wait for a query
    tile; this hung when one producer warp loaded both in order)."""
    lens = [64, 1, 2, 63, 64, 33, 1, 64] * 9 + [5, 700, 64]
    run(lens, 2 if causal else 1, 64, causal)
    run(lens[:40], 1, 128, causal, cluster=2)


@pytest.mark.parametrize("prefetch", [0, 1, 8])
def test_prefetch(prefetch):
    """The L2 prefetch distance (pages ahead; 0 = none) changes no
    result: entries shorter and longer than it."""
    run([3, 64, 65, 200, 700, 4096], 2, 64, True, prefetch=prefetch)


@pytest.mark.parametrize("cluster", [1, 2])
def test_clusters(cluster):
    """Each query tile loading its own pages, and pairs of tiles sharing
    each load (multicast)."""
    run(ragged(33, 5), 2, 128, True, cluster=cluster)
    run(ragged(4, 6), 1, 128, False, cluster=cluster)


def test_scales():
    """Arbitrary fp32 scales (rounded to bf16 by the kernel, as by the
    reference) and channel magnitudes from 1/16 to 16."""
    run(ragged(9, 8), 1, 64, False, pow2=False)
    run(ragged(9, 9), 2, 64, True, spread=4.0)


def test_nan_past_seqlen():
    """Slots past seqlen hold NaN scales, NaN e4m3 codes and NaN rope: their
    scores are masked and their dequantized rows are zero."""
    run([1, 63, 65, 100, 129, 700], 2, 64, True, nan_tail=True)
    run([5, 31, 33, 64, 77], 1, 128, False, nan_tail=True)


def test_sq_4():
    run(ragged(5, 4), 4, 16, True)


def test_api():
    """flash_mla_with_kvcache(is_fp8_kvcache=True): default scale, shapes,
    the custom op under torch.compile, what it refuses."""
    gen = torch.Generator(device="cuda").manual_seed(3)
    seqlens = [100, 700, 65]
    k_cache, table = make_cache(seqlens, torch.bfloat16, gen)
    k8 = txl.ops.quantize_mla_kv_cache(k_cache)
    q = torch.randn((3, 1, 128, 576), device="cuda",
                    generator=gen).bfloat16()
    lens = torch.tensor(seqlens, dtype=torch.int32, device="cuda")
    meta, splits = txl.ops.get_mla_metadata(lens, 128, 1, 128, True)
    out, lse = txl.ops.flash_mla_with_kvcache(q, k8, table, lens, 512, meta,
                                              splits, is_fp8_kvcache=True)
    want, want_lse = reference(q, dequantize(k8), table, lens, 576 ** -0.5,
                               False)
    assert out.shape == (3, 1, 128, 512) and lse.shape == (3, 128, 1)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)
    # uint8 bytes of the same cache read the same.
    out_u8, _ = txl.ops.flash_mla_with_kvcache(
        q, k8.view(torch.uint8), table, lens, 512, meta, splits,
        is_fp8_kvcache=True)
    torch.testing.assert_close(out_u8, out, atol=0, rtol=0)
    compiled = torch.compile(
        lambda a: txl.ops.flash_mla_with_kvcache(
            a, k8, table, lens, 512, meta, splits,
            is_fp8_kvcache=True)[0] * 2, fullgraph=True)
    torch.testing.assert_close(compiled(q), out * 2)
    with pytest.raises(NotImplementedError):  # fp16 q
        txl.ops.flash_mla_with_kvcache(q.half(), k8, table, lens, 512, meta,
                                       splits, is_fp8_kvcache=True)
    with pytest.raises(ValueError):  # a bf16 cache is not 656 wide
        txl.ops.flash_mla_with_kvcache(q, k_cache, table, lens, 512, meta,
                                       splits, is_fp8_kvcache=True)
    with pytest.raises(NotImplementedError):  # fp8 bytes without the flag
        txl.ops.flash_mla_with_kvcache(q, k8[..., :576], table, lens, 512,
                                       meta, splits)
    with pytest.raises(NotImplementedError):
        txl.ops.get_mla_metadata(lens, 128, 1, 128, True, topk=2048)
