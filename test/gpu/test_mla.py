"""txl.ops MLA decoding (python/txl/ops/mla.py) on the GPU against an fp32
reference: batches 1, 4, 33 and 132, ragged cache_seqlens (1, 63, 64, 65,
non-multiples of 64, long), s_q 1 and 2, causal (multi-token prediction)
and not, h_q 16, 64 and 128, fp16 and bf16, shuffled block tables. The
output sits inside a larger NaN-filled buffer and the LSE is NaN-filled
before launch, so a missed or stray store shows."""

import math

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

import txl.ops  # noqa: E402
from txl.ops import _mla  # noqa: E402

PAGE = 64


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the MLA kernel needs sm_90a")


def make_cache(seqlens, dtype, gen, extra_pages=3, nan_tail=False):
    """A paged cache whose pages are handed out in a shuffled order, and
    the block table that finds them. With nan_tail the slots past each
    entry's seqlen (in its last page) hold NaN, as a reused pool may."""
    B = len(seqlens)
    per = [max(1, -(-n // PAGE)) for n in seqlens]
    width = max(per)
    total = sum(per) + extra_pages
    k_cache = torch.randn((total, PAGE, 1, 576), device="cuda",
                          generator=gen).to(dtype)
    order = torch.randperm(total, device="cuda", generator=gen)
    table = torch.full((B, width), -7, dtype=torch.int32, device="cuda")
    at = 0
    for b, n in enumerate(per):
        table[b, :n] = order[at:at + n].to(torch.int32)
        at += n
        if nan_tail and seqlens[b] % PAGE:
            k_cache[table[b, n - 1].long(), seqlens[b] % PAGE:] = float("nan")
    return k_cache, table


def reference(q, k_cache, table, seqlens, scale, causal):
    """O [B, s_q, h_q, 512] and LSE [B, h_q, s_q] in fp32; a row that
    sees no key gets O = 0 and LSE = +inf."""
    B, Sq, H, _ = q.shape
    outs, lses = [], []
    for b in range(B):
        n = int(seqlens[b])
        pages = table[b, :max(1, -(-n // PAGE))].long()
        kv = k_cache[pages].reshape(-1, 576)[:n].float()
        s = torch.einsum("shd,kd->shk", q[b].float(), kv) * scale
        if causal:
            i = torch.arange(Sq, device=q.device)[:, None, None]
            k = torch.arange(n, device=q.device)[None, None, :]
            s = s.masked_fill(k > n - Sq + i, float("-inf"))
        lse = torch.logsumexp(s, dim=-1)
        p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
        outs.append(torch.einsum("shk,kd->shd", p, kv[:, :512]))
        lses.append(torch.where(torch.isinf(lse) & (lse < 0),
                                float("inf"), lse).transpose(0, 1))
    return torch.stack(outs), torch.stack(lses)


def run(seqlens, Sq, H, dtype, causal, seed=0, cluster=None,
        schedule=None, nan_tail=False, pad_rows=0, **opts):
    """One decode against the reference; opts go to flash_mla_into
    (reload_q, prefetch); pad_rows > 0 stores each token's 576 channels in
    a wider row (pages not contiguous bytes)."""
    gen = torch.Generator(device="cuda").manual_seed(seed + len(seqlens))
    B = len(seqlens)
    k_cache, table = make_cache(seqlens, dtype, gen, nan_tail=nan_tail)
    if pad_rows:
        wide = torch.full(k_cache.shape[:3] + (576 + pad_rows,),
                          float("nan"), device="cuda", dtype=dtype)
        wide[..., :576] = k_cache
        k_cache = wide[..., :576]
    q = torch.randn((B, Sq, H, 576), device="cuda", generator=gen).to(dtype)
    lens = torch.tensor(seqlens, dtype=torch.int32, device="cuda")
    meta, splits = txl.ops.get_mla_metadata(lens, Sq * H, 1)
    scale = 576 ** -0.5
    n = B * Sq * H * 512
    big = torch.full((n + 4096,), float("nan"), device="cuda", dtype=dtype)
    out = big[:n].view(B, Sq, H, 512)
    lse = torch.full((B, H, Sq), float("nan"), device="cuda")
    _mla.flash_mla_into(q, k_cache, table, lens, meta, splits, scale,
                        causal, out, lse, cluster=cluster,
                        schedule=schedule, **opts)
    torch.cuda.synchronize()
    want, want_lse = reference(q, k_cache, table, lens, scale, causal)
    tol = 1e-2 if dtype == torch.float16 else 2e-2
    torch.testing.assert_close(out.float(), want, atol=tol, rtol=tol)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)
    assert torch.isnan(big[n:]).all(), "a store past the output"


def ragged(B, seed, longest=3000):
    """B lengths with the edge cases first: 1, 63, 64, 65, 128, 129."""
    edges = [1, 63, 64, 65, 128, 129, 1000, 4097]
    g = torch.Generator().manual_seed(seed)
    rest = torch.randint(1, longest, (max(0, B - len(edges)),),
                         generator=g).tolist()
    return (edges + rest)[:B]


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq", [1, 2])
@pytest.mark.parametrize("B", [1, 4, 33, 132])
def test_batches(B, Sq, causal):
    run(ragged(B, B), Sq, 128, torch.bfloat16, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16],
                         ids=["fp16", "bf16"])
@pytest.mark.parametrize("H", [16, 64, 128])
def test_heads(H, dtype, causal):
    run(ragged(9, H), 2, H, dtype, causal)


@pytest.mark.parametrize("seqlen", [1, 2, 63, 64, 65, 127, 129, 4096, 9001])
def test_one_entry(seqlen):
    """One long or short entry: split over all parts, or none."""
    run([seqlen], 1, 64, torch.bfloat16, False)
    run([seqlen, 3], 2, 16, torch.float16, True)


@pytest.mark.parametrize("Sq", [1, 2])
def test_no_cluster(Sq):
    """Each query tile loading its own pages (the default pairs them)."""
    run(ragged(33, 5), Sq, 128, torch.bfloat16, Sq == 2, cluster=1)


# The decode kernel's schedules (the "-q2" ones are the sparse kernel's).
DECODE_SCHEDULES = [s for s in _mla.SCHEDULES
                    if s not in _mla.SPARSE_ONLY_SCHEDULES]


@pytest.mark.parametrize("cluster", [1, 2])
@pytest.mark.parametrize("schedule", DECODE_SCHEDULES)
def test_schedules(schedule, cluster):
    """Every schedule (the default is tested above), with and without
    clusters, ragged and causal."""
    run(ragged(33, 6), 2, 128, torch.bfloat16, True, cluster=cluster,
        schedule=schedule)
    run(ragged(4, 7), 1, 64, torch.float16, False, cluster=1,
        schedule=schedule)


@pytest.mark.parametrize("schedule", DECODE_SCHEDULES)
def test_nan_past_seqlen(schedule):
    """Cache slots past seqlen hold NaN: their scores are masked and their
    V rows zeroed before P V (P = 0 times NaN would still be NaN)."""
    run([1, 63, 65, 100, 129, 700], 2, 64, torch.bfloat16, True,
        schedule=schedule, nan_tail=True)
    run([5, 64, 77], 1, 128, torch.float16, False, schedule=schedule,
        nan_tail=True)


@pytest.mark.parametrize("prefetch", [0, 1, 4])
@pytest.mark.parametrize("reload_q", [False, True], ids=["held", "reload"])
def test_decode_options(reload_q, prefetch):
    """Q's descriptors made in the loop (reload_q) and the L2 prefetch of
    pages ahead (prefetch), each way round: ragged and causal, clusters,
    NaN past seqlen, one long entry split over all parts."""
    opts = dict(reload_q=reload_q, prefetch=prefetch)
    run(ragged(33, 8), 2, 128, torch.bfloat16, True, **opts)
    run(ragged(9, 9), 1, 128, torch.float16, False, cluster=2, **opts)
    run([1, 63, 65, 100, 129, 700], 2, 64, torch.bfloat16, True,
        nan_tail=True, **opts)
    run([9001], 1, 16, torch.bfloat16, False, **opts)


@pytest.mark.parametrize("lean", [False, True], ids=["synced", "lean"])
def test_early_alpha(lean):
    """alpha sent ahead of P (mla.early_alpha_step): ragged and causal,
    clusters, NaN past seqlen, fp16, one entry split over all parts."""
    opts = dict(early_alpha=True, lean_publish=lean, reload_q=True)
    run(ragged(33, 16), 2, 128, torch.bfloat16, True, **opts)
    run(ragged(9, 17), 1, 128, torch.float16, False, cluster=2, **opts)
    run([1, 63, 65, 100, 129, 700], 2, 64, torch.bfloat16, True,
        nan_tail=True, prefetch=2, **opts)
    run([9001], 1, 16, torch.bfloat16, False, **opts)


@pytest.mark.parametrize("reload_q", [False, True], ids=["held", "reload"])
def test_lean_publish(reload_q):
    """P and alpha handed over without smem_store's warpgroup barriers
    (txl.smem_store(..., sync=False)): ragged and causal, clusters, NaN
    past seqlen, fp16, one entry split over all parts."""
    opts = dict(lean_publish=True, reload_q=reload_q)
    run(ragged(33, 14), 2, 128, torch.bfloat16, True, **opts)
    run(ragged(9, 15), 1, 128, torch.float16, False, cluster=2, **opts)
    run([1, 63, 65, 100, 129, 700], 2, 64, torch.bfloat16, True,
        nan_tail=True, prefetch=2, **opts)
    run([9001], 1, 16, torch.bfloat16, False, **opts)


def test_prefetch_padded_rows():
    """Cache rows wider than 576 (pages are not contiguous bytes): the
    prefetch is dropped, the result is the same."""
    run(ragged(9, 10), 1, 128, torch.bfloat16, False, pad_rows=64,
        prefetch=4, reload_q=True)
    run(ragged(5, 11), 2, 64, torch.float16, True, pad_rows=16, prefetch=2)


@pytest.mark.parametrize("ablate", sorted(_mla._kernels.ABLATIONS))
def test_ablations_finish(ablate):
    """The timing-only ablations (bench_mla.py --ab parts) keep every
    barrier balanced: each finishes on a ragged batch split over all parts
    and with clusters (its output is not checked: it leaves work out),
    and "none" is the plain kernel."""
    gen = torch.Generator(device="cuda").manual_seed(12)
    seqlens = ragged(33, 12)
    B = len(seqlens)
    k_cache, table = make_cache(seqlens, torch.bfloat16, gen)
    q = torch.randn((B, 1, 128, 576), device="cuda",
                    generator=gen).bfloat16()
    lens = torch.tensor(seqlens, dtype=torch.int32, device="cuda")
    meta, splits = txl.ops.get_mla_metadata(lens, 128, 1)
    outs = []
    for cluster in (1, 2):
        out = torch.empty((B, 1, 128, 512), device="cuda",
                          dtype=torch.bfloat16)
        lse = torch.empty((B, 128, 1), device="cuda")
        _mla.flash_mla_into(q, k_cache, table, lens, meta, splits, 0.04,
                            False, out, lse, cluster=cluster, ablate=ablate,
                            reload_q=True)
        torch.cuda.synchronize()
        outs.append(out)
    if ablate == "none":
        want, _ = reference(q, k_cache, table, lens, 0.04, False)
        for out in outs:
            torch.testing.assert_close(out.float(), want, atol=2e-2,
                                       rtol=2e-2)


def test_decode_option_errors():
    gen = torch.Generator(device="cuda").manual_seed(13)
    k_cache, table = make_cache([100], torch.bfloat16, gen)
    q = torch.randn((1, 1, 64, 576), device="cuda", generator=gen).bfloat16()
    lens = torch.tensor([100], dtype=torch.int32, device="cuda")
    meta, splits = txl.ops.get_mla_metadata(lens, 64, 1)
    out = torch.empty((1, 1, 64, 512), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((1, 64, 1), device="cuda")
    args = (q, k_cache, table, lens, meta, splits, 0.04, False, out, lse)
    with pytest.raises(ValueError, match="ablate='no-such'"):
        _mla.flash_mla_into(*args, ablate="no-such")
    with pytest.raises(ValueError, match="OVERLAP=0"):
        _mla.flash_mla_into(*args, ablate="no-pv", schedule="page-early")
    with pytest.raises(ValueError, match="prefetch=-1"):
        _mla.flash_mla_into(*args, prefetch=-1)


def test_sq_4():
    run(ragged(5, 4), 4, 16, torch.bfloat16, True)


def test_api():
    """flash_mla_with_kvcache: default scale, shapes, the custom op under
    torch.compile, what it refuses."""
    gen = torch.Generator(device="cuda").manual_seed(3)
    seqlens = [100, 700, 65]
    k_cache, table = make_cache(seqlens, torch.bfloat16, gen)
    q = torch.randn((3, 1, 128, 576), device="cuda",
                    generator=gen).bfloat16()
    lens = torch.tensor(seqlens, dtype=torch.int32, device="cuda")
    meta, splits = txl.ops.get_mla_metadata(lens, 128, 1)
    out, lse = txl.ops.flash_mla_with_kvcache(q, k_cache, table, lens, 512,
                                              meta, splits)
    want, want_lse = reference(q, k_cache, table, lens, 576 ** -0.5, False)
    assert out.shape == (3, 1, 128, 512) and lse.shape == (3, 128, 1)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)
    compiled = torch.compile(
        lambda a: txl.ops.flash_mla_with_kvcache(a, k_cache, table, lens,
                                                 512, meta, splits)[0] * 2,
        fullgraph=True)
    torch.testing.assert_close(compiled(q), out * 2)
    with pytest.raises(NotImplementedError):
        txl.ops.flash_mla_with_kvcache(q, k_cache, table, lens, 256, meta,
                                       splits)
    with pytest.raises(ValueError):
        txl.ops.flash_mla_with_kvcache(q[..., :512], k_cache, table, lens,
                                       512, meta, splits)
