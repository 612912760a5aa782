#!/usr/bin/env python3
"""Flagship GEMM benchmark: tutorials/gemm/flagship.py vs cuBLAS, Triton.

One GPU, one process:

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_flagship.py [--quick] [--configs] [--json F]
    # no GPU needed: compile the flagship with txlc for sm_90a and print
    # what ptxas says of it (registers, spills) and its shared memory
    python3 bench/bench_flagship.py --dry-run [--configs] [--sms N]

Times C = A @ B (A [M, K], B [K, N], both row-major) with
  - cuBLAS: torch.matmul(a, b, out=c),
  - Triton: examples/matmul.py's @triton.jit matmul_kernel at its best
    verified config of bench_gemm.py's CONFIGS (measured as bench_gemm.py
    measures it),
  - the flagship: gemm_ws, warp-specialized and persistent (one producer
    warpgroup issuing TMA, two consumer warpgroups on wgmma), launched on
    min(SMs, tiles) CTAs with TMA descriptors made once per shape, as a
    user would cache them. One extra row per shape times the same launch
    with the three descriptors made inside the timed call, to show what
    making them costs.
for fp16 8192x8192x1024, 8192^3, 4096^3, 16384x1024x8192 and bf16 4096^3,
8192^3 (MxNxK). Every output is poisoned with NaN, computed once and
checked against bench_gemm.py's fp32 reference and tolerance before it is
timed (triton.testing.do_bench, L2 flushed, median). The goal is the
flagship at >= 1.03x cuBLAS; the last table says PASS or MISS per shape.
Timing, checking, the header and the JSON file are bench_gemm.py's.
"""

import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import bench_gemm as bg  # noqa: E402

TUTORIAL_DIR = os.path.join(bg.REPO, "tutorials", "gemm")
FLAGSHIP_SOURCE = os.path.join(TUTORIAL_DIR, "flagship.py")
KERNEL = "gemm_ws"
TARGET = "sm_90a"  # wgmma, TMA and setmaxnreg: Hopper only

# (dtype, M, N, K)
SHAPES = [("fp16", 8192, 8192, 1024),
          ("fp16", 8192, 8192, 8192),
          ("fp16", 4096, 4096, 4096),
          ("fp16", 16384, 1024, 8192),  # skinny: tall A, narrow B
          ("bf16", 4096, 4096, 4096),
          ("bf16", 8192, 8192, 8192)]
QUICK_SHAPES = [SHAPES[0], SHAPES[2], SHAPES[4]]

# Flagship tile configs (BM, BN, BK, STAGES, CLUSTER, SPLIT). The first is
# the default; --configs tries all and keeps the fastest verified one. Each
# consumer warpgroup owns BM/2 rows, so the C descriptor's block is
# [BM/2, BN/SPLIT] (SPLIT=2: two accumulators, the C tile stored in two
# halves, which frees the shared memory of a fourth stage); with CLUSTER=2
# a program is a 2-CTA cluster (num_ctas=2) that multicasts B halves, and
# B's block is [BK, BN/2].
CONFIGS = [(128, 256, 64, 4, 1, 2), (128, 256, 64, 4, 2, 2),
           (128, 256, 64, 3, 2, 1), (128, 256, 64, 3, 1, 1),
           (128, 128, 64, 4, 1, 1)]
GROUP_M = 8
NUM_WARPS = 4        # per warpgroup
NUM_WARPGROUPS = 3   # producer + two consumers
GOAL = 1.03          # flagship / cuBLAS
DRY_RUN_SMS = 132    # H100 SXM; NUM_SMS is a kernel argument
HOST_LAUNCHES = 20   # back-to-back launches timed on the host clock

SETMAXNREG_RE = re.compile(
    r"setmaxnreg\.(inc|dec)\.sync\.aligned\.u32\s+(\d+)")
DESC_ROW = " descriptors made per call"

log = bg.log


def cdiv(a, b):
    return (a + b - 1) // b


def config_label(cfg):
    bm, bn, bk, stages, cluster, split = cfg
    return (f"{bm}x{bn}x{bk} s{stages}"
            + (f" c{cluster}" if cluster > 1 else "")
            + (f" e{split}" if split > 1 else ""))


def launch_kwargs(cfg):
    bm, bn, bk, stages, cluster, split = cfg
    return dict(BM=bm, BN=bn, BK=bk, STAGES=stages, GROUP_M=GROUP_M,
                CLUSTER=cluster, SPLIT=split, num_warps=NUM_WARPS,
                num_warpgroups=NUM_WARPGROUPS, num_ctas=cluster)


def desc_blocks(cfg):
    """The block shapes of the A, B and C descriptors."""
    bm, bn, bk, _, cluster, split = cfg
    return [bm, bk], [bk, bn // cluster], [bm // 2, bn // split]


def signature(shape, cfg, sms):
    """The signature txl.jit specializes gemm_ws to for this launch, in
    txlc's spelling (see python/txl/tensor_descriptor.py)."""
    dtype, M, N, K = shape
    entries = [f"tensordesc<{dtype}[{b0}, {b1}]>"
               for b0, b1 in desc_blocks(cfg)]
    entries += [bg.int_entry(v) for v in (M, N, K, sms // cfg[4])]
    entries += [str(v) for v in cfg[:4]] + [str(GROUP_M), str(cfg[4])]
    entries += ["False", "0", str(cfg[5])]  # B_T, PROMOTE, SPLIT
    return ", ".join(entries)


def setmaxnreg(ptx):
    """'dec 40, inc 232': the register budgets the warpgroups move to."""
    found = sorted(set(SETMAXNREG_RE.findall(ptx or "")))
    return ", ".join(f"{op} {n}" for op, n in found) or "none"


def spills_text(res):
    if not res or "error" in res:
        return "-"
    return f"{res.get('spill_stores')}/{res.get('spill_loads')}"


# ---------------------------------------------------------------------------
# --dry-run: txlc only, no GPU, no torch or triton
# ---------------------------------------------------------------------------

def dry_compile(txlc, dtype, sig, cfg, out_dir, scratch, ptxas):
    """txlc of gemm_ws for one signature: bench_gemm.txlc_compile's result
    plus the setmaxnreg budgets in its PTX."""
    result = {"dtype": dtype, "config": config_label(cfg), "signature": sig,
              "target": TARGET}
    options = ["--num-warps", str(NUM_WARPS),
               "--num-warpgroups", str(NUM_WARPGROUPS),
               "--num-ctas", str(cfg[4])]
    result, ptx = bg.txlc_compile(txlc, FLAGSHIP_SOURCE, KERNEL, sig, options,
                                  TARGET, out_dir, scratch, ptxas, result)
    if ptx is not None:
        result["setmaxnreg"] = setmaxnreg(ptx)
    return result


def dry_row(r):
    res = r.get("resources") or {}
    regs = res.get("registers", "ptxas -v failed" if "error" in res else "-")
    mma = bg.mma_summary(r.get("mma", {})) if r.get("compiled") else "-"
    if r.get("compiled") and not r.get("mma_ok"):
        mma += f" (no {r.get('expected_mma')}!)"
    cells = [r["dtype"], r["config"], "yes" if r.get("compiled") else "NO",
             bg.fmt(r.get("seconds"), 2), regs, spills_text(res),
             bg.fmt(r.get("shared_bytes")), r.get("setmaxnreg", "-"), mma]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def dry_run(args):
    txlc = bg.find_txlc(args.txlc)
    if txlc is None:
        log("txlc not found: build it (build/bin/txlc) or pass --txlc PATH")
        return 1
    ptxas = bg.find_ptxas()
    configs = CONFIGS if args.configs else CONFIGS[:1]
    log(f"# flagship GEMM dry run: txlc {KERNEL}, target {TARGET}, no GPU")
    log(f"- txlc: {txlc}")
    log(f"- ptxas for register counts: {ptxas or 'not found (skipped)'}")
    log(f"- NUM_SMS in the signature: {args.sms}")
    # Shapes whose M, N, K specialize alike share one compile.
    todo = {}
    for shape in (QUICK_SHAPES if args.quick else SHAPES):
        for cfg in configs:
            todo.setdefault((shape[0], signature(shape, cfg, args.sms)),
                            cfg)
    rows = bg.RESULTS.setdefault("dry_run", {
        "target": TARGET, "txlc": txlc, "sms": args.sms, "configs": []
    })["configs"]
    scratch = tempfile.mkdtemp(prefix="txl-flagship-dry-")
    try:
        for i, ((dtype, sig), cfg) in enumerate(todo.items()):
            rows.append(dry_compile(txlc, dtype, sig, cfg,
                                    os.path.join(scratch, str(i)), scratch,
                                    ptxas))
            bg.log_compiled(rows[-1])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    bg.write_json(args.json)
    good = sum(bool(r.get("compiled") and r.get("mma_ok")) for r in rows)
    log("")
    log(f"## {KERNEL} for {TARGET} (num_warps={NUM_WARPS}, "
        f"num_warpgroups={NUM_WARPGROUPS}, GROUP_M={GROUP_M})")
    log("(registers: ptxas -v's count at launch, before setmaxnreg moves "
        "each warpgroup; shared: the dynamic shared memory txl launches "
        "with)")
    log("| dtype | config | compiles | txlc s | registers | spill st/ld B "
        "| shared B | setmaxnreg | tensor-core MMAs in PTX |")
    log("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        log(dry_row(r))
    log("")
    log(f"{good}/{len(rows)} compile with wgmma")
    return 0 if good == len(rows) else 1


# ---------------------------------------------------------------------------
# GPU run
# ---------------------------------------------------------------------------

def import_flagship():
    if TUTORIAL_DIR not in sys.path:
        sys.path.insert(0, TUTORIAL_DIR)
    import flagship
    return flagship


class Launch:
    """gemm_ws over one Case and config: the grid, the keyword arguments
    and the descriptors, made once."""

    def __init__(self, txl, kernel, case, cfg, sms):
        self.txl, self.kernel, self.case = txl, kernel, case
        self.blocks = desc_blocks(cfg)
        bm, bn, cluster = cfg[0], cfg[1], cfg[4]
        # A program is a cluster: `programs` is also the tile loop's stride.
        self.programs = sms // cluster
        self.grid = (min(self.programs,
                         cdiv(case.M, bm * cluster) * cdiv(case.N, bn)),)
        self.kwargs = launch_kwargs(cfg)
        self.descs = self.make_descriptors()

    def make_descriptors(self):
        make = self.txl.TensorDescriptor.from_tensor
        case = self.case
        return tuple(make(t, block) for t, block in
                     zip((case.a, case.b, case.c), self.blocks))

    def args(self, descs):
        case = self.case
        return (*descs, case.M, case.N, case.K, self.programs)

    def cached(self):
        """The launch with the descriptors made in __init__."""
        return self.kernel[self.grid](*self.args(self.descs), **self.kwargs)

    def fresh(self):
        """The launch with descriptors made (and so encoded) anew."""
        descs = self.make_descriptors()
        return self.kernel[self.grid](*self.args(descs), **self.kwargs)

    def launcher(self):
        return self.kernel.warmup(*self.args(self.descs), **self.kwargs)


def host_us(torch, fn, n):
    """Host microseconds per call of fn() over n back-to-back calls: what
    the launch costs the CPU. do_bench can hide this behind its L2 flush,
    which the GPU is still running while the host prepares the launch."""
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / n * 1e6


def bench_shape(torch, triton_kernel, txl, kernel, shape, configs, sms,
                quick, ptxas, scratch, code_info):
    dtype, M, N, K = shape
    label = bg.shape_label(shape)
    result = {"dtype": dtype, "M": M, "N": N, "K": K, "flop": 2 * M * N * K,
              "cublas": None, "triton": {}, "flagship": {}}
    case = bg.Case(torch, shape)
    try:
        result["cublas"] = bg.measure_cublas(torch, case, label, quick)

        def triton_facts(cfg, clabel, first):
            key = f"triton {dtype} {clabel}"
            if key not in code_info:
                code_info[key] = bg.triton_code_info(first)
        result["triton"] = bg.time_configs(torch, case, triton_kernel,
                                           f"{label} triton", quick,
                                           triton_facts)

        launches = {}
        for cfg in configs:
            clabel = config_label(cfg)
            where = f"{label} flagship {clabel}"
            if kernel is None:
                result["flagship"][clabel] = {"error": "not available"}
                continue
            try:
                launch = launches[clabel] = Launch(txl, kernel, case, cfg,
                                                   sms)
                r, _ = bg.measure(torch, case, launch.cached, where, quick)
                r["host_us"] = host_us(torch, launch.cached,
                                       5 if quick else HOST_LAUNCHES)
                result["flagship"][clabel] = r
            except Exception as e:  # noqa: BLE001
                result["flagship"][clabel] = bg.record_error(where, e)
                continue
            key = f"flagship {dtype} {clabel}"
            if key not in code_info:
                try:
                    code_info[key] = bg.launcher_info(txl, launch.launcher(),
                                                      ptxas, scratch)
                except Exception as e:  # noqa: BLE001
                    code_info[key] = {"error": f"{type(e).__name__}: {e}"}

        best = bg.pick_best(result["flagship"])
        result["flagship_best"] = ({"config": best[0], **best[1]}
                                   if best else None)
        if best:
            # The best config again, its descriptors made in the timed call.
            where = f"{label} flagship {best[0]},{DESC_ROW}"
            launch = launches[best[0]]
            try:
                r, _ = bg.measure(torch, case, launch.fresh, where, quick)
                r["host_us"] = host_us(torch, launch.fresh,
                                       5 if quick else HOST_LAUNCHES)
                result["flagship_desc_per_call"] = {"config": best[0], **r}
                result["flagship"][best[0] + "," + DESC_ROW] = r
            except Exception as e:  # noqa: BLE001
                result["flagship_desc_per_call"] = bg.record_error(where, e)
    finally:
        del case
        torch.cuda.empty_cache()

    tb = bg.pick_best(result["triton"])
    result["triton_best"] = {"config": tb[0], **tb[1]} if tb else None
    cub = result["cublas"] or {}
    cub_tf = cub.get("tflops") if cub.get("correct") else None
    flag_tf = (result["flagship_best"] or {}).get("tflops")
    result["flagship_over_cublas"] = bg.ratio(flag_tf, cub_tf)
    result["flagship_over_triton"] = bg.ratio(
        flag_tf, (result["triton_best"] or {}).get("tflops"))
    over = result["flagship_over_cublas"]
    result["goal"] = None if over is None else (
        "PASS" if over >= GOAL else "MISS")
    return result


def descriptor_table(shapes):
    lines = ["| shape | config | TFLOP/s, cached descriptors | TFLOP/s, "
             "made per call | host us/launch cached | host us/launch "
             "per call |",
             "|---|---|---|---|---|---|"]
    for r in shapes:
        best = r.get("flagship_best") or {}
        fresh = r.get("flagship_desc_per_call") or {}
        fresh_tf = fresh.get("tflops") if fresh.get("correct") else None
        lines.append(
            f"| {r['M']}x{r['N']}x{r['K']} {r['dtype']} "
            f"| {best.get('config', 'none verified')} "
            f"| {bg.fmt(best.get('tflops'))} | {bg.fmt(fresh_tf)} "
            f"| {bg.fmt(best.get('host_us'))} "
            f"| {bg.fmt(fresh.get('host_us'))} |")
    return lines


def gpu_run(args):
    quick = args.quick
    libs = bg.import_gpu_libs()
    if libs is None:
        return 1
    torch, triton, txl, matmul = libs
    kernel = None
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    if (props.major, props.minor) < (9, 0):
        bg.record_error("flagship", RuntimeError(
            f"needs {TARGET} (Hopper); this GPU is sm_{props.major}"
            f"{props.minor}"))
    elif txl is not None:
        try:
            kernel = getattr(import_flagship(), KERNEL)
        except Exception as e:  # noqa: BLE001
            bg.record_error("import tutorials/gemm/flagship.py", e)

    configs = CONFIGS if args.configs else CONFIGS[:1]
    info = bg.header(torch, triton, txl)
    bg.RESULTS.update(info=info, quick=quick, goal=GOAL, group_m=GROUP_M,
                      flagship_configs=[config_label(c) for c in configs],
                      triton_configs=[bg.config_label(c)
                                      for c in bg.CONFIGS],
                      num_warps=NUM_WARPS, num_warpgroups=NUM_WARPGROUPS)
    log(f"# Flagship GEMM ({KERNEL}) vs cuBLAS vs Triton"
        + (" [--quick]" if quick else ""))
    bg.log_info(info)
    log(f"- flagship configs: {', '.join(bg.RESULTS['flagship_configs'])}, "
        f"GROUP_M={GROUP_M}, grid min({sms} SMs, tiles)")
    log(f"- Triton configs: {', '.join(bg.RESULTS['triton_configs'])}")
    log("")

    scratch, ptxas = bg.make_scratch("txl-bench-flagship-", triton)
    code_info = bg.RESULTS["code"] = {}
    shapes = bg.RESULTS["shapes"] = []
    try:
        bg.each_shape(
            shapes, QUICK_SHAPES if quick else SHAPES,
            lambda shape: bench_shape(torch, matmul.matmul_kernel, txl,
                                      kernel, shape, configs, sms, quick,
                                      ptxas, scratch, code_info))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    bg.write_json(args.json)
    log("")
    log("## Details (every measurement; code: MMAs in the PTX, registers)")
    for line in bg.detail_table(shapes, code_info, ("triton", "flagship")):
        log(line)
    log("")
    log("## What making the TMA descriptors in the timed call costs "
        "(best flagship config)")
    for line in descriptor_table(shapes):
        log(line)
    bg.log_errors()
    passed = sum(r.get("goal") == "PASS" for r in shapes)
    wrong = [f"{r['M']}x{r['N']}x{r['K']} {r['dtype']} {clabel}"
             for r in shapes for clabel, fr in r["flagship"].items()
             if fr.get("correct") is False]
    log("")
    log(f"## Flagship GEMM -- {info.get('gpu')}, torch {info.get('torch')}, "
        f"triton {info.get('triton')}, {info.get('date')}, git "
        f"{info.get('git')}" + (" [--quick]" if quick else ""))
    log(f"(goal: flagship >= {GOAL:.2f}x cuBLAS; {passed}/"
        f"{len(shapes)} shapes PASS; best verified config per library"
        + (f"; flagship output WRONG for: {'; '.join(wrong)}" if wrong
           else "") + ")")
    goal = (f">= {GOAL:.2f}x cuBLAS",
            lambda r: r.get("goal") or "MISS (no result)")
    for line in bg.summary_table(shapes, "flagship", [goal]):
        log(line)
    return 0


def main():
    p = bg.arg_parser(__doc__, f"no GPU: compile the flagship for {TARGET} "
                               "with txlc and print ptxas -v's registers "
                               "and spills and its shared memory")
    p.add_argument("--configs", action="store_true",
                   help="try every flagship config ("
                        + ", ".join(config_label(c) for c in CONFIGS)
                        + "), keep the fastest verified; default: the first")
    p.add_argument("--sms", type=int, default=DRY_RUN_SMS,
                   help="--dry-run's NUM_SMS value (default "
                        f"{DRY_RUN_SMS}, an H100 SXM)")
    args = p.parse_args()
    return dry_run(args) if args.dry_run else gpu_run(args)


if __name__ == "__main__":
    sys.exit(main())
