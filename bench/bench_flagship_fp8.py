#!/usr/bin/env python3
"""fp8 flagship GEMM benchmark: tutorials/gemm/flagship.py vs cuBLAS fp8.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_flagship_fp8.py [--quick] [--json F]
    # no GPU, no torch/triton: compile every config with build/bin/txlc for
    # sm_90a; ptxas -arch=sm_90a -v registers, spills, shared, the wgmma
    python3 bench/bench_flagship_fp8.py --dry-run [--sms N]

Times, in one process, C = A @ B with A [M, K] and B^T [N, K] in
float8_e4m3fn (row-major) and C in fp16:
  - cuBLAS: torch._scaled_mm(a, bt.t(), scale_a=1, scale_b=1,
    out_dtype=float16) (bt.t() is the column-major B _scaled_mm asks for);
    "n/a" where this torch has no usable _scaled_mm,
  - the flagship: gemm_ws(..., B_T=True) (warp-specialized, persistent: one
    TMA producer warpgroup, two wgmma consumer warpgroups), launched as
    test/gpu/test_gemm_flagship.py::test_flagship_fp8 launches it, at each of
    CONFIGS; the fastest verified config counts.
for 8192x8192x1024, 8192^3, 4096^3 and 16384x1024x8192 (MxNxK).

Every output, cuBLAS's too, is computed once and checked against the
float32 product a.float() @ bt.float().t() (TF32 off) before it is timed:
|C - ref| <= max(1e-2, K * 2^-12) + 2e-3 |ref|, the fp16 output compared in
float32 (Hopper's fp8 wgmma accumulates with ~14 mantissa bits, so the
error grows with K; a lost or doubled K slice is off by far more). A wrong
output is FAIL and not timed. Times are medians of triton.testing.do_bench
(L2 flushed; bench/_common.py's bench_ms); TMA descriptors are made once
per (shape, config), outside the timed call. The goal is the flagship at
>= 1.03x cuBLAS fp8; the markdown table, printed last, says PASS or MISS.
"""

import os
import re
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import bench_gemm as bg  # noqa: E402
import bench_ladder as bl  # noqa: E402  (ptxas -v parsing, short errors)
from _common import bench_ms, header  # noqa: E402

TUTORIAL_DIR = os.path.join(bg.REPO, "tutorials", "gemm")
FLAGSHIP_SOURCE = os.path.join(TUTORIAL_DIR, "flagship.py")
KERNEL = "gemm_ws"
TARGET = "sm_90a"        # fp8 wgmma, TMA, setmaxnreg, clusters: Hopper only
AB_SIG = "fp8e4nv"       # txl's signature spelling of torch.float8_e4m3fn
C_SIG = "fp16"
# The fp8 wgmma the consumers must issue: e4m3 x e4m3 into f32.
FP8_WGMMA = re.compile(r"wgmma\.mma_async\S*\.f32\.e4m3\.e4m3")

# (M, N, K)
SHAPES = [(8192, 8192, 1024),
          (8192, 8192, 8192),
          (4096, 4096, 4096),
          (16384, 1024, 8192)]  # skinny: tall A, narrow B

# (BM, BN, BK, STAGES, CLUSTER). BK=128 is one 128-byte swizzle row of fp8.
# Shared memory, 3 stages at 128x256: 3 * (128 + 256) * 128 B of operands
# + 2 * 64 * 256 * 2 B of C tiles = 208 KB; 128x128 with 4 stages: 160 KB.
# An optional sixth element is PROMOTE: fold the fp8 wgmma's running sum
# into an fp32 total every PROMOTE K slices (accuracy at large K; needs the
# 128x128 tile, whose two accumulators fit the registers). An optional
# seventh is SPLIT: 2 stores C in two column halves through a tile half as
# wide, which makes room for a fourth stage at 128x256.
CONFIGS = [(128, 256, 128, 4, 1, 0, 2),
           (128, 256, 128, 4, 2, 0, 2),
           (128, 256, 128, 3, 1),
           (128, 256, 128, 3, 2),
           (128, 128, 128, 4, 1),
           (128, 128, 128, 4, 1, 4),
           (128, 128, 128, 4, 2, 4)]
GROUP_M = 8
NUM_WARPS = 4        # per warpgroup
NUM_WARPGROUPS = 3   # producer + two consumers
GOAL = 1.03          # flagship / cuBLAS
DRY_RUN_SMS = 132    # H100 SXM; NUM_SMS is a kernel argument
RTOL = 2e-3


def atol(K):
    return max(1e-2, K * 2.0 ** -12)


log = bg.log
short_error = bl.short_error


def cdiv(a, b):
    return (a + b - 1) // b


def promote(cfg):
    return cfg[5] if len(cfg) > 5 else 0


def split(cfg):
    return cfg[6] if len(cfg) > 6 else 1


def config_label(cfg):
    bm, bn, bk, stages, cluster = cfg[:5]
    return (f"{bm}x{bn}x{bk} s{stages}" + (f" c{cluster}" if cluster > 1
                                           else "")
            + (f" p{promote(cfg)}" if promote(cfg) else "")
            + (f" e{split(cfg)}" if split(cfg) > 1 else ""))


def shape_label(shape):
    return "x".join(map(str, shape))


def desc_blocks(cfg):
    """The A, B^T and C descriptor blocks: with CLUSTER=2 each CTA loads
    (and multicasts) half of B^T's rows; each consumer stores BM/2 rows."""
    bm, bn, bk, _, cluster = cfg[:5]
    return [bm, bk], [bn // cluster, bk], [bm // 2, bn // split(cfg)]


def grid_size(shape, cfg, sms):
    """Programs launched: one per SM (a program is a cluster, so SMs / 2
    with CLUSTER=2), fewer when there are fewer tiles. Also NUM_SMS, the
    tile loop's stride, as in the test."""
    M, N, _ = shape
    bm, bn, cluster = cfg[0], cfg[1], cfg[4]
    tiles = cdiv(M, bm * cluster) * cdiv(N, bn)
    return max(1, min(sms // cluster, tiles))


def launch_kwargs(cfg):
    bm, bn, bk, stages, cluster = cfg[:5]
    return dict(BM=bm, BN=bn, BK=bk, STAGES=stages, GROUP_M=GROUP_M,
                CLUSTER=cluster, B_T=True, PROMOTE=promote(cfg),
                SPLIT=split(cfg), num_warps=NUM_WARPS,
                num_warpgroups=NUM_WARPGROUPS, num_ctas=cluster)


def signature(shape, cfg, sms):
    """The signature txl.jit specializes gemm_ws to for this launch, in
    txlc's spelling."""
    M, N, K = shape
    (a0, a1), (b0, b1), (c0, c1) = desc_blocks(cfg)
    entries = [f"tensordesc<{AB_SIG}[{a0}, {a1}]>",
               f"tensordesc<{AB_SIG}[{b0}, {b1}]>",
               f"tensordesc<{C_SIG}[{c0}, {c1}]>"]
    entries += [bg.int_entry(v)
                for v in (M, N, K, grid_size(shape, cfg, sms))]
    bm, bn, bk, stages, cluster = cfg[:5]
    entries += [str(v) for v in (bm, bn, bk, stages, GROUP_M, cluster)]
    entries.append("True")  # B_T
    entries.append(str(promote(cfg)))  # PROMOTE
    entries.append(str(split(cfg)))  # SPLIT
    return ", ".join(entries)


def txlc_options(cfg):
    return ["--num-warps", str(NUM_WARPS),
            "--num-warpgroups", str(NUM_WARPGROUPS),
            "--num-ctas", str(cfg[4])]


# ---------------------------------------------------------------------------
# --dry-run: txlc and ptxas only, no GPU, no torch or triton
# ---------------------------------------------------------------------------

def dry_config(txlc, ptxas, sig, cfg, scratch, index):
    out_dir = os.path.join(scratch, str(index))
    result = {"config": config_label(cfg), "signature": sig,
              "options": txlc_options(cfg), "target": TARGET}
    # ptxas=None: txlc_compile skips its own ptxas; run_ptxas below runs
    # `ptxas -arch=sm_90a -v` and keeps the warnings as well.
    result, ptx = bg.txlc_compile(txlc, FLAGSHIP_SOURCE, KERNEL, sig,
                                  txlc_options(cfg), TARGET, out_dir,
                                  scratch, None, result)
    if ptx is not None:
        result["fp8_wgmma"] = sorted(
            {m.group(0) for m in FP8_WGMMA.finditer(ptx)})
        budgets = sorted(set(bl.SETMAXNREG_RE.findall(ptx)))
        result["setmaxnreg"] = ", ".join(f"{op} {n}" for op, n in budgets)
        result["ptxas"] = (bl.run_ptxas(ptxas, os.path.join(
            out_dir, f"{KERNEL}.ptx")) if ptxas else None)
    return result


def dry_ok(r):
    """Compiled, issues the e4m3 wgmma, and (where ptxas ran) assembles
    without serializing the wgmma pipeline (ptxas warning C7515)."""
    pt = r.get("ptxas")
    if pt is not None and ("error" in pt or any(
            "C7515" in w for w in pt.get("warnings", []))):
        return False
    return bool(r.get("compiled") and r.get("fp8_wgmma"))


def dry_row(r):
    pt = r.get("ptxas") or {}
    if not r.get("compiled"):
        regs = spills = "-"
    elif "error" in pt:
        regs = spills = "ptxas FAILED"
    elif not pt:
        regs = spills = "(no ptxas)"
    else:
        regs = bg.fmt(pt.get("registers"))
        spills = f"{pt.get('spill_stores')}/{pt.get('spill_loads')}"
    shared = bg.fmt(r.get("shared_bytes"))
    if pt.get("static_smem"):
        shared += f" (+{pt['static_smem']} static)"
    if not r.get("compiled"):
        mma = "-"
    else:
        counts = {re.sub(r"\.sync\.aligned", "", k): v
                  for k, v in r.get("mma", {}).items()}
        mma = bg.mma_summary(counts)
        if not r.get("fp8_wgmma"):
            mma += " (no e4m3 wgmma!)"
    cells = [r["config"], "yes" if r.get("compiled") else "NO",
             bg.fmt(r.get("seconds"), 2), regs, spills, shared,
             r.get("setmaxnreg") or "-", mma,
             bl.warning_text(pt.get("warnings")) if pt else "-"]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def dry_run(args):
    txlc = bg.find_txlc(args.txlc)
    if txlc is None:
        log("txlc not found: build it (build/bin/txlc) or pass --txlc PATH")
        return 1
    ptxas = bg.find_ptxas()
    log(f"# fp8 flagship dry run: txlc {KERNEL} (B_T=True, e4m3 in, fp16 "
        f"out), target {TARGET}, no GPU")
    log(f"- txlc: {txlc}")
    log(f"- ptxas: {ptxas or 'not found (register counts skipped)'}")
    log(f"- NUM_SMS in the signatures: grid size for {args.sms} SMs")
    # Shapes whose M, N, K and grid specialize alike share one compile.
    todo = {}
    for shape in SHAPES:
        for cfg in CONFIGS:
            todo.setdefault(signature(shape, cfg, args.sms), cfg)
    rows = bg.RESULTS.setdefault("dry_run", {
        "target": TARGET, "txlc": txlc, "ptxas": ptxas, "sms": args.sms,
        "configs": []})["configs"]
    scratch = tempfile.mkdtemp(prefix="txl-flagship-fp8-dry-")
    try:
        for i, (sig, cfg) in enumerate(todo.items()):
            r = dry_config(txlc, ptxas, sig, cfg, scratch, i)
            rows.append(r)
            if r.get("compiled"):
                log(f"{r['config']}: compiled in {r['seconds']:.2f} s")
            else:
                log(f"{r['config']}: FAILED to compile\n     "
                    + r.get("error", "").replace("\n", "\n     "))
            pt = r.get("ptxas") or {}
            if "error" in pt:
                log("     ptxas: " + pt["error"].replace("\n", "\n     "))
            for w in pt.get("warnings", []):
                log(f"     {w}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    bg.write_json(args.json)
    good = sum(dry_ok(r) for r in rows)
    log("")
    log(f"## fp8 {KERNEL} for {TARGET}: ptxas -v (registers at launch, "
        "before setmaxnreg; shared: txl's dynamic bytes)")
    log("| config | compiles | txlc s | registers | spill st/ld B "
        "| shared B | setmaxnreg | MMAs in PTX | ptxas warnings |")
    log("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        log(dry_row(r))
    log("")
    log(f"{good}/{len(rows)} configs compile, assemble and use the e4m3 "
        "wgmma")
    return 0 if good == len(rows) else 1


# ---------------------------------------------------------------------------
# GPU run
# ---------------------------------------------------------------------------

class Operands:
    """fp8 A [M, K] and B^T [N, K] (seeded by the shape), the float32
    reference, the flagship's output."""

    def __init__(self, torch, shape):
        M, N, K = shape
        gen = torch.Generator(device="cuda").manual_seed(M * 13 + N * 5 + K)
        fp8 = torch.float8_e4m3fn
        self.a = torch.randn((M, K), device="cuda", generator=gen).to(fp8)
        self.bt = torch.randn((N, K), device="cuda", generator=gen).to(fp8)
        tf32 = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = False  # a true fp32 product
        try:
            # fp8 values are exact in float32, so only the sum rounds.
            self.ref = self.a.float() @ self.bt.float().t()
        finally:
            torch.backends.cuda.matmul.allow_tf32 = tf32
        self.c = torch.empty((M, N), device="cuda", dtype=torch.float16)
        self.shape = shape


def check(torch, out, ops):
    """(correct, max abs error); NaN (the poison) anywhere fails."""
    got = out.float()
    if not bool(torch.isfinite(got).all().item()):
        return False, float("inf")
    err = (got - ops.ref).abs()
    ok = bool((err <= atol(ops.shape[2]) + RTOL * ops.ref.abs()).all()
              .item())
    return ok, float(err.max().item())


def error_entry(where, exc):
    """Records exc (traceback to the JSON only: the output stays short)
    and returns the result dict of a failed measurement. An error already
    printed (a config that fails to compile fails on every shape) is not
    printed again."""
    text = short_error(exc)
    seen = any(e["error"] == text for e in bg.ERRORS)
    bg.ERRORS.append({"where": where, "error": text,
                      "traceback": traceback.format_exc()[-2000:]})
    log(f"{where}: ERROR " + ("(as above)" if seen else text))
    return {"error": text}


def wrong_text(max_err):
    return ("NaN/inf in C" if max_err == float("inf")
            else f"max abs err {max_err:.3g}")


def time_it(torch, launch, shape, quick, where, r):
    M, N, K = shape
    r["ms"] = bench_ms(launch, quick)
    r["tflops"] = bg.tflops(M, N, K, r["ms"])
    log(f"{where}: {r['ms']:.4f} ms, {r['tflops']:.0f} TFLOP/s (err "
        f"{r['max_abs_err']:.2g})")
    return r


def measure_cublas(torch, ops, quick):
    where = f"{shape_label(ops.shape)} cuBLAS"
    scaled_mm = getattr(torch, "_scaled_mm", None)
    if scaled_mm is None:
        log(f"{where}: n/a (torch {torch.__version__} has no _scaled_mm)")
        return {"na": "no torch._scaled_mm"}
    one = torch.tensor(1.0, device="cuda")
    b = ops.bt.t()  # column-major [K, N], the layout _scaled_mm requires

    def launch():
        out = scaled_mm(ops.a, b, scale_a=one, scale_b=one,
                        out_dtype=torch.float16)
        # torch < 2.4 returns (out, amax).
        return out[0] if isinstance(out, tuple) else out
    try:
        out = launch()
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        # A build without fp8 GEMM support (or another signature): no
        # baseline, but the flagship still runs.
        log(f"{where}: n/a ({short_error(e)[:160]})")
        return {"na": short_error(e)}
    ok, max_err = check(torch, out, ops)
    r = {"correct": ok, "max_abs_err": max_err}
    del out
    if not ok:
        log(f"{where}: FAIL, wrong output ({wrong_text(max_err)}); "
            "not timed")
        return r
    try:
        return time_it(torch, launch, ops.shape, quick, where, r)
    except Exception as e:  # noqa: BLE001
        return error_entry(where, e)


def measure_flagship(torch, txl, kernel, ops, cfg, sms, quick):
    where = f"{shape_label(ops.shape)} flagship {config_label(cfg)}"
    M, N, K = ops.shape
    try:
        make = txl.TensorDescriptor.from_tensor
        descs = tuple(make(t, block) for t, block in
                      zip((ops.a, ops.bt, ops.c), desc_blocks(cfg)))
        grid = (grid_size(ops.shape, cfg, sms),)
        args = (*descs, M, N, K, grid[0])
        kwargs = launch_kwargs(cfg)

        def launch():
            return kernel[grid](*args, **kwargs)
        ops.c.fill_(float("nan"))
        torch.cuda.synchronize()
        start = time.perf_counter()
        launch()  # the first call compiles
        torch.cuda.synchronize()
        r = {"grid": grid[0], "first_call_s": time.perf_counter() - start}
        r["correct"], r["max_abs_err"] = check(torch, ops.c, ops)
    except Exception as e:  # noqa: BLE001
        return error_entry(where, e)
    if not r["correct"]:
        log(f"{where}: FAIL, wrong output ({wrong_text(r['max_abs_err'])});"
            " not timed")
        return r
    try:
        return time_it(torch, launch, ops.shape, quick, where, r)
    except Exception as e:  # noqa: BLE001
        return error_entry(where, e)


def cublas_cell(cub):
    if cub.get("na"):
        return "n/a"
    if cub.get("error"):
        return "ERROR"
    if cub.get("correct") is False:
        return "FAIL"
    return bg.fmt(cub.get("tflops"))


def flagship_cell(row):
    best = row.get("best")
    if best:
        return bg.fmt(best[1]["tflops"])
    states = [r for r in row["flagship"].values()]
    if any(r.get("correct") is False for r in states):
        return "FAIL"
    return "ERROR"


def final_table(rows):
    lines = ["| shape (MxNxK) | cuBLAS fp8 TFLOP/s | flagship TFLOP/s "
             "| best config | flagship/cuBLAS "
             f"| >= {GOAL:.2f}x cuBLAS |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        over = row.get("over")
        goal = ("n/a" if over is None else
                "PASS" if over >= GOAL else "MISS")
        if row.get("best") is None:
            goal = "MISS (no verified result)"
        cells = [row["shape"], cublas_cell(row["cublas"]),
                 flagship_cell(row),
                 row["best"][0] if row.get("best") else "-",
                 bg.fmt(over, 3), goal]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def gpu_run(args):
    try:
        import torch
        import triton
    except Exception as e:  # noqa: BLE001
        log(f"cannot import torch/triton: {e} (--dry-run needs neither)")
        return 1
    if not torch.cuda.is_available():
        log("no CUDA device (--dry-run compiles without one)")
        return 1
    props = torch.cuda.get_device_properties(0)
    if (props.major, props.minor) < (9, 0):
        log(f"the fp8 flagship needs {TARGET} (Hopper); this GPU is "
            f"sm_{props.major}{props.minor}")
        return 1
    if not hasattr(torch, "float8_e4m3fn"):
        log(f"torch {torch.__version__} has no float8_e4m3fn")
        return 1
    try:
        txl = bg.import_txl()
        if TUTORIAL_DIR not in sys.path:
            sys.path.insert(0, TUTORIAL_DIR)
        import flagship
        kernel = getattr(flagship, KERNEL)
    except Exception as e:  # noqa: BLE001
        log(f"cannot import txl / the flagship: {short_error(e)}")
        return 1
    sms = props.multi_processor_count
    info = header(torch, triton, txl)
    bg.RESULTS.update(info=info, quick=args.quick, sms=sms, rtol=RTOL,
                      atol="max(1e-2, K * 2^-12)", goal=GOAL,
                      configs=[config_label(c) for c in CONFIGS])
    log(f"# fp8 flagship GEMM vs cuBLAS fp8 -- {info.get('gpu')} ({sms} "
        f"SMs), torch {info.get('torch')}, triton {info.get('triton')}, "
        f"git {info.get('git')}, {info.get('date')}"
        + (" [--quick]" if args.quick else ""))

    scratch = tempfile.mkdtemp(prefix="txl-bench-flagship-fp8-")
    # A private txl cache: what is measured is compiled by this library.
    os.environ.setdefault("TXL_CACHE_DIR", os.path.join(scratch, "cache"))
    rows = bg.RESULTS["shapes"] = []
    try:
        for shape in SHAPES:
            row = {"shape": shape_label(shape), "M": shape[0],
                   "N": shape[1], "K": shape[2], "flagship": {}}
            rows.append(row)
            try:
                ops = Operands(torch, shape)
            except Exception as e:  # noqa: BLE001
                row["cublas"] = error_entry(f"{row['shape']} operands", e)
                continue
            try:
                row["cublas"] = measure_cublas(torch, ops, args.quick)
                for cfg in CONFIGS:
                    row["flagship"][config_label(cfg)] = measure_flagship(
                        torch, txl, kernel, ops, cfg, sms, args.quick)
            finally:
                del ops
                torch.cuda.empty_cache()
            good = [(label, r) for label, r in row["flagship"].items()
                    if r.get("correct") and r.get("tflops")]
            row["best"] = (max(good, key=lambda item: item[1]["tflops"])
                           if good else None)
            cub = row["cublas"]
            row["over"] = bg.ratio(
                row["best"][1]["tflops"] if row["best"] else None,
                cub.get("tflops") if cub.get("correct") else None)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    bg.write_json(args.json)
    # {config: shapes where it was wrong or raised}
    wrong = {}
    for row in rows:
        for label, r in row["flagship"].items():
            if r.get("correct") is not True:
                wrong.setdefault(label, []).append(row["shape"])
    wrong_summary = "; ".join(
        f"{label} on " + ("all shapes" if len(where) == len(rows)
                          else ", ".join(where))
        for label, where in wrong.items())
    passed = sum(row.get("over") is not None and row["over"] >= GOAL
                 for row in rows)
    log("")
    log(f"## fp8 flagship GEMM -- {info.get('gpu')}, torch "
        f"{info.get('torch')}, git {info.get('git')}"
        + (" [--quick]" if args.quick else ""))
    log(f"(e4m3 A [M,K] @ B^T [N,K] -> fp16; cuBLAS = torch._scaled_mm, "
        f"scales 1; {passed}/{len(rows)} shapes PASS"
        + (f"; FAIL/ERROR: {wrong_summary}" if wrong else "") + ")")
    for line in final_table(rows):
        log(line)
    # A wrong or crashing config is a bug to look at, even if another
    # config of the shape verified.
    return 1 if wrong else 0


def main():
    p = bg.arg_parser(__doc__, f"no GPU: compile every config for {TARGET} "
                               "with txlc; ptxas -v registers, spills, "
                               "shared bytes, the wgmma")
    p.add_argument("--sms", type=int, default=DRY_RUN_SMS,
                   help="--dry-run's SM count for NUM_SMS (default "
                        f"{DRY_RUN_SMS}, an H100 SXM)")
    for action in p._actions:  # every shape runs; --quick only repeats less
        if action.dest == "quick":
            action.help = "fewer timing repetitions (a smoke run)"
    args = p.parse_args()
    return dry_run(args) if args.dry_run else gpu_run(args)


if __name__ == "__main__":
    sys.exit(main())
