#!/usr/bin/env python3
"""GEMM ladder benchmark: every step of tutorials/gemm against cuBLAS.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_ladder.py [--steps 3,9,10] [--quick] [--json F]
    # no GPU, no torch/triton: compile each step with build/bin/txlc for
    # sm_90a and print ptxas -v's registers, spills, shared bytes, warnings
    python3 bench/bench_ladder.py --dry-run [--steps 8-10] [--sms N]

The ladder builds a Hopper GEMM one idea at a time (step01_one_tile.py ...
step10_two_consumers.py). This script runs each step once, at the one
configuration its docstring argues for, so the table shows what each idea
buys: TFLOP/s of the step, of cuBLAS (torch.matmul(a, bt.t(), out=c)) on
the same shape in the same process, and their ratio.

Operands are as in test/gpu/test_gemm_ladder.py: fp16 A [M, K] and B^T
[N, K], row-major, C fp16 [M, N]; every step is launched exactly as that
test launches it (descriptor blocks, grid, NUM_SMS / NUM_CLUSTERS,
num_warps / num_warpgroups / num_ctas, constexprs). Steps 3-10 run
4096x4096x4096. Steps 1 and 2 compute a single tile with one CTA, so they
run at their own shape (step 1: one 128x128x64 tile; step 2: a 128x128
tile with K = 4096) and cuBLAS is timed on that shape too -- a one-CTA
kernel against a whole-GPU library, which mostly measures launch cost.

Before any timing each output is poisoned with NaN, computed once and
checked against a float32 reference (A @ B^T without TF32, rounded to
fp16) with the GPU tests' tolerance, |C - ref| <= 1e-2 + 1e-3 |ref|. A step
whose output is wrong is reported as FAIL and not timed. cuBLAS is checked
with bench_gemm.py's tolerance (its own reduction order is not ours to
judge) and timed once per shape. Times are medians of
triton.testing.do_bench (L2 flushed between calls; bench/_common.py's
bench_ms); the first call of each step, which compiles it, is timed
separately and reported in the JSON. TMA descriptors are made once per
step, outside the timed call. The markdown table is printed last.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import bench_gemm as bg  # noqa: E402
from _common import bench_ms, header  # noqa: E402

TUTORIAL_DIR = os.path.join(bg.REPO, "tutorials", "gemm")
TARGET = "sm_90a"     # wgmma, TMA, setmaxnreg and clusters: Hopper only
DTYPE = "fp16"
GROUP_M = 8
DRY_RUN_SMS = 132     # H100 SXM; NUM_SMS / NUM_CLUSTERS are kernel arguments

# Output check of a txl step, as in test/gpu/test_gemm_ladder.py.
RTOL, ATOL = 1e-3, 1e-2

BIG = (4096, 4096, 4096)


class Step:
    """One rung of the ladder: where the kernel is, what it adds, the
    configuration it is measured at and how it is launched.

    launch: "tile" (pointers, grid (1,)), "grid2d" (pointers, 2-D grid),
    "tma2d" (descriptors, 2-D grid), "persistent" (descriptors, grid
    min(SMs, tiles), NUM_SMS), "cluster" (step 9: a program is a 2-CTA
    cluster, the grid counts clusters). stages: the NUM_STAGES constexpr
    for steps that take one, else None (the label then shows the depth the
    step has built in)."""

    def __init__(self, num, module, adds, block, shape, launch, builtin=1,
                 stages=None, warpgroups=1, ctas=1, c_rows=None):
        self.num, self.module, self.adds = num, module, adds
        self.kernel = f"gemm_step{num:02d}"
        self.block, self.shape, self.launch = block, shape, launch
        self.builtin, self.stages = builtin, stages
        self.warpgroups, self.ctas = warpgroups, ctas
        self.c_rows = c_rows or block[0]   # rows of C's descriptor block

    @property
    def source(self):
        return os.path.join(TUTORIAL_DIR, self.module + ".py")

    def config_label(self):
        bm, bn, bk = self.block
        text = f"{bm}x{bn}x{bk} s{self.stages or self.builtin}"
        if self.warpgroups > 1:
            text += f" {self.warpgroups}wg"
        if self.ctas > 1:
            text += f" {self.ctas}cta"
        return text

    def shape_label(self):
        return "x".join(map(str, self.shape))

    def grid(self, sms):
        """The launch grid for `sms` SMs (the test's grid for this step)."""
        M, N, _ = self.shape
        bm, bn, _ = self.block
        tiles_m, tiles_n = cdiv(M, bm), cdiv(N, bn)
        if self.launch == "tile":
            return (1,)
        if self.launch in ("grid2d", "tma2d"):
            return (tiles_m, tiles_n)
        if self.launch == "persistent":
            return (min(sms, tiles_m * tiles_n),)
        # A cluster owns two tiles stacked along M; one cluster per SM pair.
        pairs = cdiv(M, 2 * bm) * tiles_n
        return (min(sms // 2, pairs),)

    def desc_blocks(self):
        """The block shapes of the A, B^T and C descriptors."""
        bm, bn, bk = self.block
        bt_rows = bn // 2 if self.launch == "cluster" else bn
        return [bm, bk], [bt_rows, bk], [self.c_rows, bn]

    def runtime_args(self, sms):
        """The non-pointer, non-descriptor runtime arguments."""
        M, N, K = self.shape
        if self.launch == "tile":
            return [K] if self.num == 2 else []  # step 2 loops over K
        if self.launch == "tma2d":
            return [K]
        if self.launch == "grid2d":
            return [M, N, K]
        return [M, N, K, self.grid(sms)[0]]

    def constexprs(self):
        bm, bn, bk = self.block
        values = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        if self.launch in ("persistent", "cluster"):
            values["GROUP_M"] = GROUP_M
        if self.stages is not None:
            values["NUM_STAGES"] = self.stages
        return values

    def options(self):
        opts = dict(num_warps=4)
        if self.warpgroups > 1:
            opts["num_warpgroups"] = self.warpgroups
        if self.ctas > 1:
            opts["num_ctas"] = self.ctas
        return opts

    def uses_tma(self):
        return self.launch not in ("tile", "grid2d")

    def signature(self, sms):
        """txlc's --signature for the launch txl.jit specializes to
        (torch allocations are 16-byte aligned; ints as python/txl/
        _specialize.py spells them)."""
        if self.uses_tma():
            entries = [f"tensordesc<{DTYPE}[{b0}, {b1}]>"
                       for b0, b1 in self.desc_blocks()]
        else:
            entries = [f"*{DTYPE}:16"] * 3
        entries += [bg.int_entry(v) for v in self.runtime_args(sms)]
        entries += [str(v) for v in self.constexprs().values()]
        return ", ".join(entries)

    def txlc_options(self):
        words = []
        for name, value in self.options().items():
            words += ["--" + name.replace("_", "-"), str(value)]
        return words


def cdiv(a, b):
    return (a + b - 1) // b


B128 = (128, 128, 64)
STEPS = [
    Step(1, "step01_one_tile", "one tile, one wgmma group", B128,
         B128, "tile"),
    Step(2, "step02_k_loop", "K loop, mbarrier phase", B128,
         (128, 128, 4096), "tile"),
    Step(3, "step03_grid", "2-D grid, masked edges", B128, BIG, "grid2d"),
    Step(4, "step04_tma", "TMA loads + TMA-store epilogue", B128, BIG,
         "tma2d"),
    Step(5, "step05_pipeline", "2-stage pipeline", B128, BIG, "tma2d",
         builtin=2),
    Step(6, "step06_persistent", "persistent, grouped order", B128, BIG,
         "persistent", builtin=2),
    Step(7, "step07_warp_specialized", "warp specialization", B128, BIG,
         "persistent", builtin=2, warpgroups=3),
    Step(8, "step08_deep_pipeline", "4-stage pipeline", B128, BIG,
         "persistent", stages=4, warpgroups=3),
    Step(9, "step09_cluster_multicast", "2-CTA cluster, B multicast", B128,
         BIG, "cluster", stages=4, warpgroups=3, ctas=2),
    Step(10, "step10_two_consumers", "two consumer warpgroups",
         (128, 256, 64), BIG, "persistent", stages=3, warpgroups=3,
         c_rows=64),
]
BY_NUM = {s.num: s for s in STEPS}

log = bg.log


def parse_steps(text):
    """"3,9,10" or "3-8,10" -> the Steps, in ladder order."""
    if not text:
        return list(STEPS)
    nums = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            first, last = int(lo), int(hi or lo)
        except ValueError:
            raise SystemExit(f"--steps: not a step number or range: {part!r}")
        for n in range(first, last + 1):
            if n not in BY_NUM:
                raise SystemExit(f"--steps: no step {n} (the ladder is "
                                 f"1-{len(STEPS)})")
            nums.add(n)
    return [s for s in STEPS if s.num in nums]


def short_error(exc):
    """The error on one line, cut short: compiler diagnostics can be long
    and the run's output tail is limited (the JSON keeps the traceback)."""
    lines = [ln.strip() for ln in f"{type(exc).__name__}: {exc}".splitlines()
             if ln.strip()]
    return " | ".join(lines)[:240]


# ---------------------------------------------------------------------------
# --dry-run: txlc and ptxas only, no GPU, no torch or triton
# ---------------------------------------------------------------------------

SETMAXNREG_RE = re.compile(
    r"setmaxnreg\.(inc|dec)\.sync\.aligned\.u32\s+(\d+)")


def run_ptxas(ptxas, ptx_path):
    """What `ptxas -arch=sm_90a -v` says of one PTX file: registers,
    spill bytes, static shared bytes and its warnings."""
    proc = subprocess.run([ptxas, f"-arch={TARGET}", "-v", ptx_path, "-o",
                           os.devnull], capture_output=True, text=True,
                          timeout=300)
    text = proc.stdout + proc.stderr
    regs = re.search(r"Used (\d+) registers", text)
    spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                       text)
    smem = re.search(r"(\d+) bytes smem", text)
    warnings = [line.strip() for line in text.splitlines()
                if "warning" in line.lower()]
    if proc.returncode != 0 or not regs:
        return {"error": text.strip()[-400:], "warnings": warnings}
    return {"registers": int(regs.group(1)),
            "spill_stores": int(spills.group(1)) if spills else 0,
            "spill_loads": int(spills.group(2)) if spills else 0,
            "static_smem": int(smem.group(1)) if smem else 0,
            "warnings": warnings}


def warning_text(warnings):
    """A short cell: the warning codes (C7515 ...) or the first words."""
    if not warnings:
        return "none"
    cells = []
    for w in warnings:
        code = re.search(r"\b(C\d{4})\b", w)
        cells.append(code.group(1) if code else
                     re.sub(r"^ptxas\s*(warning)?\s*:?\s*", "", w,
                            flags=re.I)[:50])
    return "; ".join(sorted(set(cells)))


def dry_step(txlc, ptxas, step, sms, scratch):
    out_dir = os.path.join(scratch, step.kernel)
    sig = step.signature(sms)
    result = {"step": step.num, "kernel": step.kernel, "dtype": DTYPE,
              "config": step.config_label(), "signature": sig,
              "options": step.txlc_options(), "target": TARGET}
    # ptxas=None: txlc_compile skips its own ptxas call; ours keeps the
    # warnings too.
    result, ptx = bg.txlc_compile(txlc, step.source, step.kernel, sig,
                                  step.txlc_options(), TARGET, out_dir,
                                  scratch, None, result)
    if ptx is not None:
        budgets = sorted(set(SETMAXNREG_RE.findall(ptx)))
        result["setmaxnreg"] = ", ".join(f"{op} {n}" for op, n in budgets)
        result["ptxas"] = (run_ptxas(ptxas, os.path.join(
            out_dir, f"{step.kernel}.ptx")) if ptxas else None)
    return result


def dry_row(r):
    pt = r.get("ptxas") or {}
    if not r.get("compiled"):
        regs = spills = "-"
    elif "error" in pt:
        regs = spills = "ptxas FAILED"
    else:
        regs = bg.fmt(pt.get("registers"))
        spills = f"{pt.get('spill_stores', '-')}/{pt.get('spill_loads', '-')}"
    shared = bg.fmt(r.get("shared_bytes"))
    if pt.get("static_smem"):
        shared += f" (+{pt['static_smem']} static)"
    mma = bg.mma_summary(r.get("mma", {})) if r.get("compiled") else "-"
    mma = re.sub(r"\.sync\.aligned", "", mma)
    if r.get("compiled") and not r.get("mma_ok"):
        mma += " (no wgmma!)"
    cells = [r["step"], r["config"], "yes" if r.get("compiled") else "NO",
             bg.fmt(r.get("seconds"), 2), regs, spills, shared,
             r.get("setmaxnreg") or "-", mma,
             warning_text(pt.get("warnings")) if pt else "-"]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def dry_ok(r):
    pt = r.get("ptxas")
    return bool(r.get("compiled") and r.get("mma_ok")
                and (pt is None or "error" not in pt))


def dry_run(args, steps):
    txlc = bg.find_txlc(args.txlc)
    if txlc is None:
        log("txlc not found: build it (build/bin/txlc) or pass --txlc PATH")
        return 1
    ptxas = bg.find_ptxas()
    log(f"# GEMM ladder dry run: txlc, target {TARGET}, no GPU")
    log(f"- txlc: {txlc}")
    log(f"- ptxas: {ptxas or 'not found (register counts skipped)'}")
    log(f"- NUM_SMS in the signatures: {args.sms} (NUM_CLUSTERS: "
        f"{args.sms // 2})")
    rows = bg.RESULTS.setdefault("dry_run", {
        "target": TARGET, "txlc": txlc, "ptxas": ptxas, "sms": args.sms,
        "steps": []})["steps"]
    scratch = tempfile.mkdtemp(prefix="txl-ladder-dry-")
    try:
        for step in steps:
            r = dry_step(txlc, ptxas, step, args.sms, scratch)
            rows.append(r)
            if r.get("compiled"):
                log(f"step {step.num}: {r['config']} compiled in "
                    f"{r['seconds']:.2f} s")
            else:
                log(f"step {step.num}: {r['config']} FAILED to compile\n"
                    "     " + r.get("error", "").replace("\n", "\n     "))
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
    log(f"## GEMM ladder for {TARGET}: ptxas -v (registers at launch, before "
        "setmaxnreg; shared: txl's dynamic bytes)")
    log("| step | config | compiles | txlc s | registers | spill st/ld B "
        "| shared B | setmaxnreg | MMAs in PTX | ptxas warnings |")
    log("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        log(dry_row(r))
    log("")
    log(f"{good}/{len(rows)} steps compile, assemble and use wgmma")
    return 0 if good == len(rows) else 1


# ---------------------------------------------------------------------------
# GPU run
# ---------------------------------------------------------------------------

class Operands:
    """A [M, K], B^T [N, K] (fp16, seeded by the shape as the tests seed
    them), the float32 reference and one output tensor per library."""

    def __init__(self, torch, shape):
        M, N, K = shape
        gen = torch.Generator(device="cuda").manual_seed(M * 131 + N * 7 + K)
        self.a = torch.randn((M, K), device="cuda",
                             generator=gen).to(torch.float16)
        self.bt = torch.randn((N, K), device="cuda",
                              generator=gen).to(torch.float16)
        tf32 = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = False  # a true fp32 reference
        try:
            self.ref = self.a.float() @ self.bt.float().t()
        finally:
            torch.backends.cuda.matmul.allow_tf32 = tf32
        # The tests compare with the exact product rounded to the output's
        # type: a correctly rounded kernel then matches it to within one
        # fp16 ulp (2^-10 relative < RTOL).
        self.ref16 = self.ref.to(torch.float16).float()
        self.c = torch.empty((M, N), device="cuda", dtype=torch.float16)
        self.c_cublas = torch.empty_like(self.c)
        self.shape = shape


def check_txl(torch, c, ops):
    """(correct, max abs error) against the rounded reference; NaN (the
    poison) anywhere fails."""
    got = c.float()
    if not bool(torch.isfinite(got).all().item()):
        return False, float("inf")
    err = (got - ops.ref16).abs()
    ok = bool((err <= ATOL + RTOL * ops.ref16.abs()).all().item())
    return ok, float(err.max().item())


def first_call(torch, out, launch):
    """Poisons `out`, runs launch() once and waits for it: seconds (the
    first call of a txl step includes compiling it)."""
    out.fill_(float("nan"))
    torch.cuda.synchronize()
    start = time.perf_counter()
    launch()
    torch.cuda.synchronize()
    return time.perf_counter() - start


def measure_cublas(torch, ops, quick):
    M, N, K = ops.shape
    label = f"cuBLAS {'x'.join(map(str, ops.shape))}"
    try:
        def launch():
            return torch.matmul(ops.a, ops.bt.t(), out=ops.c_cublas)
        first_call(torch, ops.c_cublas, launch)
        ok, max_err, _ = bg.verify(torch, ops.c_cublas, ops.ref, K)
        r = {"correct": ok, "max_abs_err": max_err}
        if not ok:
            log(f"  !! {label}: WRONG output (max err {max_err:.3g}); "
                "not timed")
            return r
        r["ms"] = bench_ms(launch, quick)
        r["tflops"] = bg.tflops(M, N, K, r["ms"])
        log(f"{label}: {r['ms']:.4f} ms, {tf_text(r['tflops'])} TFLOP/s")
        return r
    except Exception as e:  # noqa: BLE001
        bg.record_error(label, e)
        return {"error": short_error(e)}


def make_launch(txl, kernel, step, ops, sms):
    """launch() for `step` on `ops`: the test's launch, descriptors made
    once here (outside the timed call); also the launch arguments."""
    grid = step.grid(sms)
    kwargs = {**step.constexprs(), **step.options()}
    if step.uses_tma():
        make = txl.TensorDescriptor.from_tensor
        ptrs = tuple(make(t, block) for t, block in
                     zip((ops.a, ops.bt, ops.c), step.desc_blocks()))
    else:
        ptrs = (ops.a, ops.bt, ops.c)
    args = (*ptrs, *step.runtime_args(sms))

    def launch():
        return kernel[grid](*args, **kwargs)
    return launch, args, kwargs


def measure_step(torch, txl, step, ops, sms, quick, ptxas, scratch):
    M, N, K = step.shape
    r = {"grid": None}
    try:
        module = __import__(step.module)
        kernel = getattr(module, step.kernel)
        launch, args, kwargs = make_launch(txl, kernel, step, ops, sms)
        r["grid"] = list(step.grid(sms))
        r["first_call_s"] = first_call(torch, ops.c, launch)
        ok, max_err = check_txl(torch, ops.c, ops)
        r.update(correct=ok, max_abs_err=max_err)
    except Exception as e:  # noqa: BLE001
        where = f"step {step.num}"
        bg.ERRORS.append({"where": where, "error": short_error(e),
                          "traceback": traceback.format_exc()[-2000:]})
        log(f"step {step.num}: ERROR {short_error(e)}")
        r["error"] = short_error(e)
        return r
    if not ok:
        what = ("NaN/inf in C" if max_err == float("inf") else
                f"max abs err {max_err:.3g}")
        log(f"step {step.num}: FAIL, wrong output ({what}); not timed")
        return r
    try:
        r["ms"] = bench_ms(launch, quick)
        r["tflops"] = bg.tflops(M, N, K, r["ms"])
    except Exception as e:  # noqa: BLE001
        bg.record_error(f"step {step.num} timing", e)
        r["error"] = short_error(e)
        return r
    log(f"step {step.num}: {r['ms']:.4f} ms, {tf_text(r['tflops'])} "
        "TFLOP/s, ok "
        f"(err {max_err:.2g}; 1st call {r['first_call_s']:.2f} s)")
    try:  # code facts for the JSON only: registers, shared bytes, MMAs
        r["code"] = bg.launcher_info(txl, kernel.warmup(*args, **kwargs),
                                     ptxas, scratch)
    except Exception as e:  # noqa: BLE001
        r["code"] = {"error": short_error(e)}
    return r


def tf_text(value):
    """TFLOP/s, with two decimals for the one-CTA steps' small numbers."""
    if value is None:
        return "-"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def txl_cell(t):
    if t.get("error"):
        return "ERROR"
    if t.get("correct") is False:
        return "FAIL"
    return tf_text(t.get("tflops"))


def final_table(rows):
    lines = ["| step | adds | config | shape (MxNxK) | txl TFLOP/s "
             "| cuBLAS TFLOP/s | txl/cuBLAS |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        cub = r["cublas"]
        cub_tf = cub.get("tflops") if cub.get("correct") else None
        cells = [r["step"], r["adds"], r["config"], r["shape"],
                 txl_cell(r["txl"]),
                 tf_text(cub_tf) if cub_tf is not None else
                 ("FAIL" if cub.get("correct") is False else "ERROR"),
                 bg.fmt(r.get("txl_over_cublas"), 3)]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines


def gpu_run(args, steps):
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
        log(f"the ladder needs {TARGET} (Hopper); this GPU is "
            f"sm_{props.major}{props.minor}")
        return 1
    try:
        txl = bg.import_txl()
    except Exception as e:  # noqa: BLE001
        log(f"cannot import txl: {short_error(e)}")
        return 1
    if TUTORIAL_DIR not in sys.path:
        sys.path.insert(0, TUTORIAL_DIR)
    sms = props.multi_processor_count
    info = header(torch, triton, txl)
    bg.RESULTS.update(info=info, quick=args.quick, sms=sms,
                      rtol=RTOL, atol=ATOL)
    log(f"# GEMM ladder vs cuBLAS, fp16 -- {info.get('gpu')} ({sms} SMs), "
        f"torch {info.get('torch')}, triton {info.get('triton')}, git "
        f"{info.get('git')}, {info.get('date')}"
        + (" [--quick]" if args.quick else ""))

    scratch, ptxas = bg.make_scratch("txl-bench-ladder-", triton)
    rows = bg.RESULTS["steps"] = []
    operands, cublas = {}, {}
    try:
        for step in steps:
            shape = step.shape
            if shape not in operands:
                # One shape at a time on the GPU: drop the previous one.
                operands.clear()
                torch.cuda.empty_cache()
                operands[shape] = Operands(torch, shape)
            ops = operands[shape]
            if shape not in cublas:
                cublas[shape] = measure_cublas(torch, ops, args.quick)
            t = measure_step(torch, txl, step, ops, sms, args.quick, ptxas,
                             scratch)
            cub = cublas[shape]
            rows.append({
                "step": step.num, "kernel": step.kernel, "adds": step.adds,
                "config": step.config_label(), "shape": step.shape_label(),
                "M": shape[0], "N": shape[1], "K": shape[2],
                "options": step.options(), "txl": t, "cublas": cub,
                "txl_over_cublas": bg.ratio(
                    t.get("tflops"),
                    cub.get("tflops") if cub.get("correct") else None)})
    finally:
        operands.clear()
        shutil.rmtree(scratch, ignore_errors=True)

    bg.write_json(args.json)
    failed = [str(r["step"]) for r in rows
              if r["txl"].get("correct") is not True]
    log("")
    log(f"## GEMM ladder -- {info.get('gpu')}, git {info.get('git')}"
        + (" [--quick]" if args.quick else ""))
    log("(fp16, A [M,K] @ B^T [N,K]; config BMxBNxBK, sN stages, wg "
        "warpgroups, cta CTAs per cluster; cuBLAS = torch.matmul on the "
        "same shape"
        + (f"; FAIL/ERROR: step {', '.join(failed)}" if failed else "")
        + ")")
    for line in final_table(rows):
        log(line)
    return 0 if not failed else 1


def main():
    p = bg.arg_parser(__doc__, f"no GPU: compile every step for {TARGET} "
                               "with txlc; ptxas -v registers, spills, "
                               "shared bytes and warnings")
    p.add_argument("--steps", metavar="LIST",
                   help="steps to run, e.g. 3,9,10 or 3-8 (default: all)")
    p.add_argument("--sms", type=int, default=DRY_RUN_SMS,
                   help="--dry-run's SM count for NUM_SMS / NUM_CLUSTERS "
                        f"(default {DRY_RUN_SMS}, an H100 SXM)")
    args = p.parse_args()
    steps = parse_steps(args.steps)
    return dry_run(args, steps) if args.dry_run else gpu_run(args, steps)


if __name__ == "__main__":
    sys.exit(main())
