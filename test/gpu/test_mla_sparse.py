"""txl.ops.flash_mla_sparse_fwd (python/txl/ops/mla.py, mla_sparse_fwd) on
the GPU against an fp32 reference: random top-k lists with invalid entries
(-1 and past the end) and repeats, top-k 64, 128, 512 and 2048, s_q from 1
up, h_q 64 and 128, a row whose list is all invalid. Outputs are
NaN-poisoned (inside larger buffers) before launch."""

import math

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

import txl.ops  # noqa: E402
from txl.ops import _mla  # noqa: E402


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the MLA kernel needs sm_90a")


def make_indices(Sq, Skv, topk, gen, invalid=0.1, repeats=0.1):
    idx = torch.randint(0, Skv, (Sq, 1, topk), device="cuda", generator=gen,
                        dtype=torch.int32)
    r = torch.rand((Sq, 1, topk), device="cuda", generator=gen)
    idx = torch.where(r < invalid / 2, torch.full_like(idx, -1), idx)
    idx = torch.where((r >= invalid / 2) & (r < invalid),
                      torch.full_like(idx, Skv + 5), idx)
    # Repeats: some entries copy the list's first entry.
    rep = (r >= invalid) & (r < invalid + repeats)
    return torch.where(rep, idx[..., :1].expand_as(idx), idx)


def reference(q, kv, idx, scale, chunk=256):
    """out, max_logits, lse (log2 units) in fp32, FlashMLA's conventions;
    a row with no valid index: out 0, max_logits -inf, lse +inf. Computed
    `chunk` tokens at a time: at s_q 4096, top-k 2048 the gathered rows
    alone would be 19 GB in fp32, and two such tests in parallel workers
    run the GPU out of memory."""
    if q.shape[0] > chunk:
        parts = [reference(q[t:t + chunk], kv, idx[t:t + chunk], scale,
                           chunk) for t in range(0, q.shape[0], chunk)]
        return tuple(torch.cat(x) for x in zip(*parts))
    Skv = kv.shape[0]
    i = idx[:, 0, :].long()
    bad = (i < 0) | (i >= Skv)
    rows = kv[:, 0, :].float()[i.masked_fill(bad, 0)]  # [Sq, topk, 576]
    s = torch.einsum("shd,skd->shk", q.float(), rows)
    s = s * (scale * math.log2(math.e))
    s = s.masked_fill(bad[:, None, :], float("-inf"))
    ml = s.max(dim=-1).values
    lse = torch.logsumexp(s * math.log(2), dim=-1) / math.log(2)
    p = torch.exp2(s - lse[..., None]).nan_to_num(0.0)
    out = torch.einsum("shk,skd->shd", p, rows[..., :512])
    lse = torch.where(torch.isinf(lse), float("inf"), lse)
    return out, ml, lse


def run(Sq, Skv, H, topk, seed=0, ctas=None, all_invalid_row=False,
        schedule=None, gather=None, spread=0.5):
    gen = torch.Generator(device="cuda").manual_seed(seed + Sq + topk)
    q = (torch.randn((Sq, H, 576), device="cuda", generator=gen) *
         spread).bfloat16()
    kv = (torch.randn((Skv, 1, 576), device="cuda", generator=gen) *
          0.5).bfloat16()
    idx = make_indices(Sq, Skv, topk, gen)
    if all_invalid_row:
        idx[0] = -1
    scale = 576 ** -0.5
    n = Sq * H * 512
    big = torch.full((n + 4096,), float("nan"), device="cuda",
                     dtype=torch.bfloat16)
    out = big[:n].view(Sq, H, 512)
    ml = torch.full((Sq, H), float("nan"), device="cuda")
    lse = torch.full((Sq, H), float("nan"), device="cuda")
    _mla.flash_mla_sparse_into(q, kv, idx, scale, out, ml, lse,
                               ctas_per_head_tile=ctas, schedule=schedule,
                               gather=gather)
    torch.cuda.synchronize()
    want, want_ml, want_lse = reference(q, kv, idx, scale)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(ml, want_ml, atol=1e-3, rtol=1e-4)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)
    assert torch.isnan(big[n:]).all(), "a store past the output"


@pytest.mark.parametrize("topk", [64, 128, 512, 2048])
@pytest.mark.parametrize("Sq", [1, 3, 200])
def test_topk(Sq, topk):
    run(Sq, 3000, 128, topk)


@pytest.mark.parametrize("H", [64, 128])
def test_heads_persistent(H):
    """Few CTAs, many tokens each (the persistent loop and its query-tile
    prefetch)."""
    run(300, 700, H, 128, ctas=3)
    run(50, 100, H, 512, ctas=1)


@pytest.mark.parametrize("gather", _mla.SPARSE_GATHERS)
@pytest.mark.parametrize("topk", [64, 128, 2048])
@pytest.mark.parametrize("schedule", _mla.SPARSE_SCHEDULES)
def test_schedules(schedule, topk, gather):
    if schedule in _mla.PAIR_SCHEDULES and gather != "cp.async":
        with pytest.raises(ValueError, match="cp.async only"):
            run(3, 100, 128, topk, schedule=schedule, gather=gather)
        return
    run(37, 900, 128, topk, schedule=schedule, ctas=7, gather=gather)


# The pair schedule (mla_sparse_pair): odd block counts (64, 192, 320: the
# last pair padded with invalid indices), ragged s_q, few CTAs with many
# tokens each (the query tile reloaded under the last pair), both head
# counts, a row with no valid index.
@pytest.mark.parametrize("schedule", list(_mla.PAIR_SCHEDULES))
@pytest.mark.parametrize("topk", [64, 128, 192, 320, 512, 2048])
@pytest.mark.parametrize("Sq,ctas", [(1, None), (37, 5), (200, None)])
def test_pair(topk, Sq, ctas, schedule):
    run(Sq, 1500, 128, topk, ctas=ctas, schedule=schedule)


@pytest.mark.parametrize("schedule", list(_mla.PAIR_SCHEDULES))
@pytest.mark.parametrize("H", [64, 128])
def test_pair_persistent(H, schedule):
    run(300, 700, H, 128, ctas=3, schedule=schedule)
    run(50, 100, H, 576, ctas=1, schedule=schedule)


def test_pair_heads_not_a_multiple_of_64():
    """h_q = 32: one head tile of 32 live rows (the TMA store would run
    into the next token's rows: the register stores are used)."""
    run(20, 300, 32, 128, ctas=4, schedule="pair")


def test_pair_all_invalid():
    """Token 0 sees no valid row (out 0, max_logits -inf, lse +inf);
    token 1's first pair is all invalid, its later rows are not (the
    rescale from a running maximum of -inf)."""
    for topk in (64, 256):
        run(5, 100, 128, topk, all_invalid_row=True, schedule="pair",
            ctas=2)
    gen = torch.Generator(device="cuda").manual_seed(3)
    q = (torch.randn((2, 64, 576), device="cuda", generator=gen) *
         0.5).bfloat16()
    kv = (torch.randn((300, 1, 576), device="cuda", generator=gen) *
          0.5).bfloat16()
    idx = torch.randint(0, 300, (2, 1, 384), device="cuda", generator=gen,
                        dtype=torch.int32)
    idx[:, :, :128] = -1
    idx[0, :, 200:] = 1000
    out = torch.full((2, 64, 512), float("nan"), device="cuda",
                     dtype=torch.bfloat16)
    ml = torch.full((2, 64), float("nan"), device="cuda")
    lse = torch.full((2, 64), float("nan"), device="cuda")
    _mla.flash_mla_sparse_into(q, kv, idx, 0.07, out, ml, lse,
                               schedule="pair")
    want, want_ml, want_lse = reference(q, kv, idx, 0.07)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(ml, want_ml, atol=1e-3, rtol=1e-4)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)


def test_pair_spread():
    """Scores spread wide (the running maximum moves by tens between
    pairs, and P_0's correction to the pair's maximum matters)."""
    run(40, 2000, 128, 1024, ctas=9, schedule="pair", spread=6.0)


def test_pair_long():
    run(4096, 16384, 128, 2048, schedule="pair")


def test_all_invalid_row():
    run(5, 100, 128, 64, all_invalid_row=True)


def test_long():
    """The previous default schedule ("half") at the long shape; the
    default ("pair") is test_pair_long."""
    run(4096, 16384, 128, 2048, ctas=None, schedule="half")


def test_api():
    gen = torch.Generator(device="cuda").manual_seed(5)
    q = torch.randn((7, 128, 576), device="cuda", generator=gen).bfloat16()
    kv = torch.randn((500, 1, 576), device="cuda", generator=gen).bfloat16()
    idx = make_indices(7, 500, 128, gen)
    out, ml, lse = txl.ops.flash_mla_sparse_fwd(q, kv, idx, 0.05)
    want, want_ml, want_lse = reference(q, kv, idx, 0.05)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)
    compiled = torch.compile(
        lambda a: txl.ops.flash_mla_sparse_fwd(a, kv, idx, 0.05)[0] * 2,
        fullgraph=True)
    torch.testing.assert_close(compiled(q), out * 2)
    with pytest.raises(NotImplementedError):
        txl.ops.flash_mla_sparse_fwd(q, kv, idx[..., :100], 0.05)
    with pytest.raises(NotImplementedError):
        txl.ops.flash_mla_sparse_fwd(q, kv, idx, 0.05, d_v=256)
