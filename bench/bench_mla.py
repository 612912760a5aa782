#!/usr/bin/env python3
"""DeepSeek MLA on Hopper: txl.ops decode (and sparse prefill) timings
against the memory floor and a PyTorch reference, in one process.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_mla.py [--quick] [--json F]

Decode (FlashMLA's configuration): b=132, h_q=128, d=576/512, bf16, 64-token
pages through a shuffled block table; s_q=1 at s_k=32768, s_q=1 at ragged
random lengths (uniform in [s_k/2, 3 s_k/2), the same mean), and s_q=2;
then s_q=1 against an fp8 cache (FlashMLA's 656-byte format, read by
mla_fp8.py: its floor is 656 / 1152 of the bf16 cache's, and its row
gives the time against the bf16 decode's in the same run).
The KV-read floor is the cache's bytes (each page read once) divided by
the device-to-device copy bandwidth measured in the same run (2 bytes moved
per byte copied); the goal is <= 1.12x the floor. The PyTorch reference is
two bmm and a softmax on the gathered cache (its gather not timed). Every
output is checked against the reference on a few entries before timing.

    python3 bench/bench_mla.py --ab parts [--parts default,reload,...]

times the decode's variants (PART_VARIANTS: the query descriptors made in
the loop, L2 prefetch distances, clusters, and ablations that each leave
one part of a page's work out) against each other in alternating rounds,
then the combine kernel alone and the default as a queue of calls.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import bench_ms, header  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402

import txl  # noqa: E402
import txl.ops  # noqa: E402

PAGE = 64
GOAL = 1.12


def copy_bandwidth(quick):
    """Bytes per second a device-to-device copy of 1 GiB moves (read plus
    write)."""
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    ms = bench_ms(lambda: dst.copy_(src), quick)
    return 2 * n / (ms * 1e-3)


def make_decode(B, Sq, H, seqlens, gen):
    pages = [-(-n // PAGE) for n in seqlens]
    total = sum(pages)
    k_cache = (torch.randn((total, PAGE, 1, 576), device="cuda",
                           generator=gen) * 0.5).bfloat16()
    order = torch.randperm(total, device="cuda", generator=gen)
    table = torch.zeros((B, max(pages)), dtype=torch.int32, device="cuda")
    at = 0
    for b, n in enumerate(pages):
        table[b, :n] = order[at:at + n].to(torch.int32)
        at += n
    q = torch.randn((B, Sq, H, 576), device="cuda", generator=gen).bfloat16()
    lens = torch.tensor(seqlens, dtype=torch.int32, device="cuda")
    return q, k_cache, table, lens


def torch_reference(q, kv, scale):
    """q [B, Sq*H, 576], kv [B, S, 576] (one length): two bmm + softmax."""
    s = torch.bmm(q, kv.transpose(1, 2)).float() * scale
    p = torch.softmax(s, dim=-1).to(q.dtype)
    return torch.bmm(p, kv[..., :512])


def check(out, lse, q, k_cache, table, lens, scale, causal, entries):
    """max |error| of out against an fp32 reference on a few entries."""
    worst = 0.0
    for b in entries:
        n = int(lens[b])
        kv = k_cache[table[b, :-(-n // PAGE)].long()].reshape(-1, 576)[:n]
        kv = kv.float()
        s = torch.einsum("shd,kd->shk", q[b].float(), kv) * scale
        if causal:
            Sq = q.shape[1]
            i = torch.arange(Sq, device="cuda")[:, None, None]
            k = torch.arange(n, device="cuda")[None, None, :]
            s = s.masked_fill(k > n - Sq + i, float("-inf"))
        want = torch.softmax(s, -1) @ kv[:, :512]
        worst = max(worst, (out[b].float() - want).abs().max().item())
        want_lse = torch.logsumexp(s, -1).transpose(0, 1)
        worst = max(worst, (lse[b] - want_lse).abs().max().item())
    return worst


def bench_decode(name, B, Sq, H, seqlens, bw, quick, with_ab, rows,
                 with_torch=False, fp8=False):
    gen = torch.Generator(device="cuda").manual_seed(len(rows))
    q, k_cache, table, lens = make_decode(B, Sq, H, seqlens, gen)
    meta, splits = txl.ops.get_mla_metadata(lens, Sq * H, 1)
    scale = 576 ** -0.5
    causal = Sq > 1
    cache = k_cache
    if fp8:
        cache = txl.ops.quantize_mla_kv_cache(k_cache)
        # The reference reads the values the kernel computes with.
        k_cache = txl.ops.dequantize_mla_kv_cache(cache)

    def run():
        return txl.ops.flash_mla_with_kvcache(q, cache, table, lens, 512,
                                              meta, splits, scale, causal,
                                              is_fp8_kvcache=fp8)

    out, lse = run()
    err = check(out, lse, q, k_cache, table, lens, scale, causal,
                [0, B // 2, B - 1])
    ms = bench_ms(run, quick)
    kv_bytes = sum(seqlens) * (656 if fp8 else 576 * 2)
    floor_ms = kv_bytes / bw * 1e3
    row = {"case": name, "B": B, "s_q": Sq, "h_q": H,
           "mean_s_k": sum(seqlens) / B, "txl_ms": ms, "floor_ms": floor_ms,
           "x_floor": ms / floor_ms, "max_err": err,
           "goal": "PASS" if ms <= GOAL * floor_ms else "MISS"}
    if with_ab and fp8:  # the fp8 kernel's variants, the bf16 schedules
        from txl.ops import _mla
        variants = {"cluster=2": dict(cluster=2),
                    "no-convert": dict(convert=False),
                    "prefetch=0": dict(prefetch=0),
                    "prefetch=2": dict(prefetch=2),
                    "prefetch=8": dict(prefetch=8)}
        for tag, kw in variants.items():
            row[f"txl_ms[fp8,{tag}]"] = bench_ms(
                lambda: _mla.flash_mla_fp8_into(
                    q, cache, table, lens, meta, splits, scale, causal, out,
                    lse, **kw), quick)
        for sched in ("page", "half"):
            row[f"txl_ms[bf16,{sched}]"] = bench_ms(
                lambda: _mla.flash_mla_into(
                    q, k_cache, table, lens, meta, splits, scale, causal,
                    out, lse, schedule=sched), quick)
    elif with_ab:  # every schedule, with and without clusters
        from txl.ops import _mla
        for sched in _mla.SCHEDULES:
            for cl in (1, 2):
                row[f"txl_ms[{sched},cluster={cl}]"] = bench_ms(
                    lambda: _mla.flash_mla_into(
                        q, k_cache, table, lens, meta, splits, scale, causal,
                        out, lse, cluster=cl, schedule=sched), quick)
        del out, lse
    if with_torch:
        kv = k_cache[table.long()].reshape(B, -1, 576)[:, :seqlens[0]]
        qq = q.reshape(B, Sq * H, 576)
        row["torch_ms"] = bench_ms(lambda: torch_reference(qq, kv, scale),
                                   quick)
        del kv
    rows.append(row)
    print(json.dumps(row), flush=True)


# The decode's variants timed against each other (--ab parts): name ->
# flash_mla_into keywords. "default" is the library's default; the others
# set every option (_variant: Q descriptors made in the loop, no L2
# prefetch, the synchronized hand-over, unless named); the ablations
# (results wrong) each leave one part of a page's work out.


def _variant(**kw):
    return {"reload_q": True, "prefetch": 0, "lean_publish": False,
            "early_alpha": False, **kw}


PART_VARIANTS = {
    "default": {},
    "page": _variant(reload_q=False),
    "reload,early": _variant(early_alpha=True),
    "reload": _variant(),
    "reload,pf2": _variant(prefetch=2),
    "reload,pf4": _variant(prefetch=4),
    "reload,pf8": _variant(prefetch=8),
    "reload,cluster2": _variant(cluster=2),
    "reload,page-early": _variant(schedule="page-early"),
    # unsynced: the P hand-over without smem_store's warpgroup barriers
    # (txl.smem_store(..., sync=False))
    "reload,unsynced": _variant(lean_publish=True),
    "reload,unsynced,pf4": _variant(lean_publish=True, prefetch=4),
    # alpha ahead of P (mla.early_alpha_step)
    "reload,unsynced,early": _variant(lean_publish=True, early_alpha=True),
    "reload,unsynced,early,pf4": _variant(lean_publish=True,
                                          early_alpha=True, prefetch=4),
    "reload,no-combine": _variant(combine=False),
    "reload,no-softmax": _variant(ablate="no-softmax"),
    "reload,no-pv": _variant(ablate="no-pv"),
    "reload,no-qk": _variant(ablate="no-qk"),
    "reload,loads-only": _variant(ablate="loads-only"),
}


def bench_decode_parts(bw, quick, rounds, names):
    """The decode at the FlashMLA config (b=132, s_q=1, s_k=32768, h_q=128,
    bf16): the variants `names` of PART_VARIANTS in `rounds` alternating
    rounds, the real ones checked against fp32 first; then the combine
    kernel alone, and the default timed as a queue of 20 back-to-back
    calls (host time per call hidden) against do_bench's one call at a
    time (which also counts any host time before the kernel starts)."""
    from txl.ops import _mla
    B, H, S = 132, 128, 32768
    gen = torch.Generator(device="cuda").manual_seed(0)
    q, k_cache, table, lens = make_decode(B, 1, H, [S] * B, gen)
    meta, splits = txl.ops.get_mla_metadata(lens, H, 1)
    scale = 576 ** -0.5
    out = torch.empty((B, 1, H, 512), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((B, H, 1), device="cuda")
    floor_ms = B * S * 576 * 2 / bw * 1e3
    runs, errs = {}, {}
    for name in names:
        kw = PART_VARIANTS[name]

        def run(kw=kw):
            _mla.flash_mla_into(q, k_cache, table, lens, meta, splits, scale,
                                False, out, lse, **kw)
        out.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        if "ablate" in kw or kw.get("combine", True) is False:
            err = None
        else:
            err = check(out, lse, q, k_cache, table, lens, scale, False,
                        [0, B // 2, B - 1])
        errs[name] = err
        runs[name] = run
    print("parts max_err: " + ", ".join(
        f"{n} {e:.1e}" if e is not None else f"{n} -"
        for n, e in errs.items()), flush=True)
    times = {n: [] for n in names}
    for _ in range(rounds):
        for name in names:
            times[name].append(bench_ms(runs[name], quick))
    base = sum(times[names[0]]) / rounds
    for name in names:
        mean = sum(times[name]) / rounds
        print(f"parts {name:>20}: {mean:.3f} ms = {mean / floor_ms:.3f}x "
              f"floor, {mean / base:.3f}x {names[0]}; runs "
              + ", ".join(f"{t:.3f}" for t in times[name]), flush=True)
    # The combine kernel alone (here every entry is one piece, so it only
    # reads num_splits: its launch is the cost).
    M = H
    oacc = torch.empty(((B + meta.shape[0]) * M, 512), device="cuda")
    lacc = torch.empty(((B + meta.shape[0]) * M,), device="cuda")
    comb = bench_ms(lambda: _mla._combine(oacc, lacc, splits, out, lse, B, M,
                                          H, 1), quick)
    run = runs.get("default") or runs[names[0]]
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    queued = []
    for _ in range(3):
        run()
        start.record()
        for _ in range(20):
            run()
        end.record()
        torch.cuda.synchronize()
        queued.append(start.elapsed_time(end) / 20)
    print(f"parts combine alone {comb:.4f} ms; "
          f"{'default' if 'default' in runs else names[0]} queued x20: "
          + ", ".join(f"{t:.3f}" for t in queued) + " ms/call (floor "
          f"{floor_ms:.3f} ms)", flush=True)


def bench_sparse(Sq, Skv, H, topk, quick, rows, with_ab):
    gen = torch.Generator(device="cuda").manual_seed(topk)
    q = (torch.randn((Sq, H, 576), device="cuda", generator=gen) *
         0.3).bfloat16()
    kv = (torch.randn((Skv, 1, 576), device="cuda", generator=gen) *
          0.3).bfloat16()
    idx = torch.randint(0, Skv, (Sq, 1, topk), device="cuda", generator=gen,
                        dtype=torch.int32)
    scale = 576 ** -0.5

    def run():
        return txl.ops.flash_mla_sparse_fwd(q, kv, idx, scale)

    out, ml, lse = run()
    worst = 0.0
    for t in (0, Sq // 2, Sq - 1):
        rows_kv = kv[idx[t, 0].long(), 0].float()
        s = q[t].float() @ rows_kv.T * scale
        want = torch.softmax(s, -1) @ rows_kv[:, :512]
        worst = max(worst, (out[t].float() - want).abs().max().item())
        want_lse = torch.logsumexp(s, -1) / 0.6931471805599453
        worst = max(worst, (lse[t] - want_lse).abs().max().item())
    del out, ml, lse
    ms = bench_ms(run, quick)
    flop = 2 * Sq * H * topk * (576 + 512)
    row = {"case": f"sparse topk={topk}", "s_q": Sq, "s_kv": Skv, "h_q": H,
           "topk": topk, "txl_ms": ms, "tflops": flop / ms / 1e9,
           "max_err": worst}
    if not with_ab:
        rows.append(row)
        print(json.dumps(row), flush=True)
        return
    from txl.ops import _mla
    out = torch.empty((Sq, H, 512), device="cuda", dtype=torch.bfloat16)
    ml = torch.empty((Sq, H), device="cuda")
    lse = torch.empty((Sq, H), device="cuda")
    for sched in _mla.SPARSE_SCHEDULES:
        for gather in _mla.SPARSE_GATHERS:
            if sched in _mla.PAIR_SCHEDULES and gather != "cp.async":
                continue  # the pair kernel gathers by cp.async only
            row[f"txl_ms[{sched},{gather}]"] = bench_ms(
                lambda: _mla.flash_mla_sparse_into(
                    q, kv, idx, scale, out, ml, lse, schedule=sched,
                    gather=gather), quick)
    rows.append(row)
    print(json.dumps(row), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--skip", default="",
                    help="comma list: decode,ragged,sq2,fp8,sparse")
    ap.add_argument("--ab", default="",
                    help="comma list: schedules (time every kernel "
                    "variant), fp8 (the fp8 kernel's variants and the "
                    "bf16 schedules on its cache), parts (the decode's "
                    "PART_VARIANTS, alternating, then the combine alone; "
                    "nothing else runs)")
    ap.add_argument("--parts", default=";".join(PART_VARIANTS),
                    help="with --ab parts: which PART_VARIANTS, separated "
                    "by ';', the first the baseline")
    ap.add_argument("--rounds", type=int, default=2,
                    help="with --ab parts: alternating rounds")
    args = ap.parse_args()
    info = header(torch, triton, txl)
    print(json.dumps(info), flush=True)
    bw = copy_bandwidth(args.quick)
    print(json.dumps({"copy_GBps": bw / 1e9}), flush=True)
    if "parts" in args.ab.split(","):
        bench_decode_parts(bw, args.quick, args.rounds,
                           args.parts.split(";"))
        return
    rows = []
    B, H, S = 132, 128, 32768
    if "decode" not in args.skip:
        bench_decode("decode s_q=1", B, 1, H, [S] * B, bw, args.quick,
                     "schedules" in args.ab, rows, with_torch=True)
        g = torch.Generator().manual_seed(7)
        ragged = torch.randint(S // 2, 3 * S // 2, (B,), generator=g)
        if "ragged" not in args.skip:
            bench_decode("decode ragged", B, 1, H, ragged.tolist(), bw,
                         args.quick, False, rows)
        if "sq2" not in args.skip:
            bench_decode("decode s_q=2", B, 2, H, [S] * B, bw, args.quick,
                         False, rows)
    if "fp8" not in args.skip:
        bench_decode("decode fp8 s_q=1", B, 1, H, [S] * B, bw, args.quick,
                     "fp8" in args.ab, rows, fp8=True)
        bf16 = [r for r in rows if r["case"] == "decode s_q=1"]
        if bf16:
            rows[-1]["x_bf16_decode"] = rows[-1]["txl_ms"] / bf16[0]["txl_ms"]
            print(json.dumps({"fp8_vs_bf16": rows[-1]["x_bf16_decode"]}),
                  flush=True)
    if "sparse" not in args.skip:
        for topk in (128, 2048):
            bench_sparse(16384, 16384, 128, topk, args.quick, rows,
                         "schedules" in args.ab)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"header": info, "copy_GBps": bw / 1e9, "rows": rows},
                      f, indent=1)


if __name__ == "__main__":
    main()
