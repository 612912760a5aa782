#!/usr/bin/env python3
"""GEMM benchmark: cuBLAS, Triton and txl side by side on one GPU.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \
        python3 bench/bench_gemm.py [--quick] [--json results.json]
    # no GPU needed: compile every tile config with txlc, list the MMAs
    python3 bench/bench_gemm.py --dry-run [--target sm_80]

Times, in one process, C = A @ B with
  - cuBLAS: torch.matmul(a, b, out=c),
  - Triton: examples/matmul.py's @triton.jit matmul_kernel,
  - txl: the same function through txl.jit(matmul.matmul_kernel),
for fp16 4096^3, 8192^3, 8192x8192x1024, 16384x1024x8192 (MxNxK) and bf16
4096^3, over a small fixed set of tile configs; Triton and txl each report
their best verified config per shape. Every output is checked against an
fp32 reference before it is timed (triton.testing.do_bench, L2 flushed,
median). Both pipeline the K loop num_stages deep (3 unless --num-stages
says otherwise): txl streams the A and B tiles into shared memory with
cp.async (PipelineAsyncCopies) and keeps one wgmma group in flight. The
markdown summary table (TFLOP/s, txl/cuBLAS, txl/Triton) is printed last.

bench_flagship.py imports this module for its timing, checking, Triton
configs, txlc dry-run and table helpers: keep their names and arguments.
"""

import argparse
import collections
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from _common import bench_ms, git_revision, header  # noqa: E402,F401

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
EXAMPLES = os.path.join(REPO, "examples")
PYTHON_DIR = os.path.join(REPO, "python")
MATMUL_SOURCE = os.path.join(EXAMPLES, "matmul.py")

# (dtype, M, N, K)
SHAPES = [("fp16", 4096, 4096, 4096),
          ("fp16", 8192, 8192, 8192),
          ("fp16", 8192, 8192, 1024),
          ("fp16", 16384, 1024, 8192),  # skinny: tall A, narrow B
          ("bf16", 4096, 4096, 4096)]
QUICK_SHAPES = [SHAPES[0], SHAPES[2], SHAPES[4]]

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps); GROUP_M and num_stages are fixed.
CONFIGS = [(128, 128, 64, 8), (128, 256, 64, 8), (64, 128, 64, 4)]
GROUP_M = 8
NUM_STAGES = 3

# Output check against the fp32 reference: fp16/bf16 output rounding is
# relative (<= 2^-9 for bf16); atol covers entries near zero, where the
# libraries' different summation orders show. A missing or doubled K tile
# is off by ~sqrt(BLOCK_K) >> atol.
RTOL = 1e-2
ATOL_PER_SQRT_K = 1e-2

MMA_RE = re.compile(r"\b(wgmma\.mma_async|mma\.sync)(\.[A-Za-z0-9_]+)*")
# The tensor-core instruction each target's tl.dot lowering must produce.
EXPECTED_MMA = {"sm_80": "mma.sync", "sm_90a": "wgmma.mma_async",
                "sm_100a": None}

RESULTS = {}
ERRORS = []


def log(*args):
    print(*args, flush=True)


def record_error(where, exc):
    text = f"{type(exc).__name__}: {exc}"
    ERRORS.append({"where": where, "error": text})
    log(f"  !! {where} failed: {text}")
    tb = traceback.format_exc()
    log("     " + "\n     ".join(tb.strip().splitlines()[-8:]))
    return {"error": text}


def fmt(value, digits=1):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def tflops(M, N, K, ms):
    if ms is None or ms <= 0:
        return None
    return 2.0 * M * N * K / (ms * 1e-3) / 1e12


def shape_label(shape):
    dtype, M, N, K = shape
    return f"{M}x{N}x{K} {dtype}"


def config_label(cfg):
    bm, bn, bk, warps = cfg
    return f"{bm}x{bn}x{bk} w{warps} s{NUM_STAGES}"


def launch_kwargs(cfg):
    bm, bn, bk, warps = cfg
    return dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=GROUP_M,
                num_warps=warps, num_stages=NUM_STAGES)


def int_entry(value):
    """txl's specialization of a Python int argument (python/txl/jit.py):
    ==1 -> i32:1, a multiple of 16 -> i32:16, else i32."""
    if value == 1:
        return "i32:1"
    return "i32:16" if value % 16 == 0 else "i32"


def txl_signature(shape, cfg):
    """The signature txl.jit specializes matmul_kernel to for a contiguous
    row-major launch of `shape` (torch allocations are 16-byte aligned)."""
    dtype, M, N, K = shape
    bm, bn, bk, _ = cfg
    scalars = [M, N, K, K, 1, N, 1, N, 1]  # M N K, strides of A, B, C
    entries = [f"*{dtype}:16"] * 3 + [int_entry(v) for v in scalars]
    entries += [str(bm), str(bn), str(bk), str(GROUP_M)]
    return ", ".join(entries)


def mma_counts(ptx):
    """{full instruction name: count} of the tensor-core MMAs in `ptx`."""
    counts = collections.Counter(m.group(0) for m in MMA_RE.finditer(ptx))
    return dict(sorted(counts.items()))


def mma_summary(counts):
    if not counts:
        return "none"
    return ", ".join(f"{n}x {name}" for name, n in counts.items())


def find_ptxas(extra_dirs=()):
    candidates = [os.environ.get("TXL_PTXAS"), shutil.which("ptxas")]
    candidates += [os.path.join(d, "ptxas") for d in extra_dirs]
    candidates.append("/usr/local/cuda/bin/ptxas")
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def ptxas_resources(ptxas, ptx_text, target, scratch):
    """Registers and spill bytes that ptxas -v reports for the PTX, or
    None. Informational: the cubin actually run may come from another
    assembler (nvJitLink or the driver)."""
    if not ptxas or not target:
        return None
    path = os.path.join(scratch, f"ptxas-{os.getpid()}-{time.time_ns()}.ptx")
    with open(path, "w", encoding="utf-8") as f:
        f.write(ptx_text)
    try:
        proc = subprocess.run([ptxas, "--gpu-name", target, "-v", path, "-o",
                               os.devnull], capture_output=True, text=True,
                              timeout=120)
    finally:
        os.unlink(path)
    text = proc.stdout + proc.stderr
    regs = re.search(r"Used (\d+) registers", text)
    spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                       text)
    smem = re.search(r"(\d+) bytes smem", text)
    if proc.returncode != 0 or not regs:
        return {"error": text.strip()[-300:]}
    # Static shared memory only: txl's is dynamic (the metadata's
    # shared_bytes), so ptxas prints no smem line for its kernels.
    # C7515: ptxas found accumulator registers written by non-wgmma code
    # inside the wgmma pipeline and serialized every wgmma (a large loss).
    return {"registers": int(regs.group(1)),
            "wgmma_serialized": "C7515" in text,
            "spill_stores": int(spills.group(1)) if spills else None,
            "spill_loads": int(spills.group(2)) if spills else None,
            "static_smem": int(smem.group(1)) if smem else None}


def resources_text(res):
    if not res:
        return ""
    if "error" in res:
        return "ptxas -v failed"
    text = f"{res['registers']} regs"
    if res.get("spill_stores"):
        text += f", {res['spill_stores']} B spilled"
    if res.get("wgmma_serialized"):
        text += ", wgmma SERIALIZED (C7515)"
    return text


# ---------------------------------------------------------------------------
# --dry-run: txlc only, no GPU, no torch or triton
# ---------------------------------------------------------------------------

def find_txlc(explicit):
    for path in (explicit, os.environ.get("TXLC"),
                 os.path.join(REPO, "build", "bin", "txlc")):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def txlc_compile(txlc, source, kernel, signature, options, target,
                 out_dir, scratch, ptxas, result):
    """Compiles `kernel` of the file `source` with txlc (options: extra
    command-line words such as --num-warps N) into out_dir, filling
    `result` with whether it compiled, in how long, the MMAs its PTX holds,
    txl's metadata (shared bytes, cubin producer), ptxas -v's resources and
    whether the MMA `target` needs is there. Returns (result, PTX text or
    None)."""
    cmd = [txlc, source, "--kernel-name", kernel, "--signature", signature,
           *options, "--target", target, "--out-dir", out_dir]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=300)
    except subprocess.TimeoutExpired:
        result.update(compiled=False, error="txlc timed out after 300 s")
        return result, None
    result["seconds"] = time.perf_counter() - start
    ptx_path = os.path.join(out_dir, f"{kernel}.ptx")
    if proc.returncode != 0 or not os.path.exists(ptx_path):
        result.update(compiled=False,
                      error=(proc.stderr or proc.stdout).strip()[-2000:])
        return result, None
    with open(ptx_path, encoding="utf-8") as f:
        ptx = f.read()
    result["compiled"] = True
    result["mma"] = mma_counts(ptx)
    try:
        with open(os.path.join(out_dir, f"{kernel}.json"),
                  encoding="utf-8") as f:
            meta = json.load(f)
        result["shared_bytes"] = meta.get("shared_bytes")
        result["cubin_producer"] = meta.get("cubin_producer")
    except (OSError, ValueError):
        pass
    expected = EXPECTED_MMA.get(target)
    result["expected_mma"] = expected
    result["mma_ok"] = (expected is None or
                        any(name.startswith(expected) for name in
                            result["mma"]))
    result["resources"] = ptxas_resources(ptxas, ptx, target, scratch)
    return result, ptx


def log_compiled(r):
    """A progress line for txlc_compile's result `r`, its error under it."""
    state = "ok" if r.get("compiled") else "FAILED"
    log(f"  {r['dtype']} {r['config']}: {state}"
        + (f" in {r['seconds']:.2f} s" if "seconds" in r else "")
        + (f"; {mma_summary(r['mma'])}" if r.get("compiled") else ""))
    if not r.get("compiled"):
        log("     " + r.get("error", "").replace("\n", "\n     "))


def dry_compile(txlc, shape, cfg, target, scratch, ptxas):
    """txlc of matmul_kernel for one (dtype, config): whether it compiles,
    in how long, and what MMAs the PTX holds."""
    dtype = shape[0]
    bm, bn, bk, warps = cfg
    out_dir = os.path.join(scratch, f"{dtype}-{bm}x{bn}x{bk}-w{warps}")
    signature = txl_signature(shape, cfg)
    result = {"dtype": dtype, "config": config_label(cfg),
              "signature": signature, "target": target,
              "num_stages_passed": NUM_STAGES}
    options = ["--num-warps", str(warps), "--num-stages", str(NUM_STAGES)]
    return txlc_compile(txlc, MATMUL_SOURCE, "matmul_kernel", signature,
                        options, target, out_dir, scratch, ptxas, result)[0]


def dry_run(args):
    txlc = find_txlc(args.txlc)
    if txlc is None:
        log("txlc not found: build it (build/bin/txlc) or pass --txlc PATH")
        return 1
    ptxas = find_ptxas()
    shapes = QUICK_SHAPES if args.quick else SHAPES
    log(f"# txl GEMM dry run: txlc, target {args.target}, no GPU")
    log(f"- txlc: {txlc}")
    log(f"- ptxas for register counts: {ptxas or 'not found (skipped)'}")
    # Every benchmark shape's M, N, K and strides are multiples of 16, so
    # all shapes of one dtype share one specialization per config.
    by_dtype = collections.OrderedDict()
    for shape in shapes:
        by_dtype.setdefault(shape[0], shape)
    for dtype, first in by_dtype.items():
        for shape in shapes:
            if shape[0] == dtype:
                for cfg in CONFIGS:
                    if txl_signature(shape, cfg) != txl_signature(first, cfg):
                        log(f"  note: {shape_label(shape)} specializes "
                            "differently; compiling the first shape's only")
    rows = []
    scratch = tempfile.mkdtemp(prefix="txl-gemm-dry-")
    try:
        for dtype, shape in by_dtype.items():
            for cfg in CONFIGS:
                r = dry_compile(txlc, shape, cfg, args.target, scratch, ptxas)
                rows.append(r)
                log_compiled(r)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    RESULTS["dry_run"] = {"target": args.target, "txlc": txlc,
                          "configs": rows}
    write_json(args.json)
    log("")
    log(f"## txl matmul_kernel configs for {args.target} "
        f"(num_stages={NUM_STAGES})")
    log("| dtype | config | compiles | txlc s | shared B | tensor-core MMAs "
        "in PTX | expected | ptxas -v |")
    log("|---|---|---|---|---|---|---|---|")
    bad = 0
    for r in rows:
        ok = r.get("compiled") and r.get("mma_ok") and not (
            r.get("resources") or {}).get("wgmma_serialized")
        bad += not ok
        expected = r.get("expected_mma") or "-"
        if r.get("compiled"):
            expected += " ok" if r.get("mma_ok") else " MISSING"
        log(f"| {r['dtype']} | {r['config']} "
            f"| {'yes' if r.get('compiled') else 'NO'} "
            f"| {fmt(r.get('seconds'), 2)} | {fmt(r.get('shared_bytes'))} "
            f"| {mma_summary(r.get('mma', {})) if r.get('compiled') else '-'}"
            f" | {expected} | {resources_text(r.get('resources')) or '-'} |")
    log("")
    log(f"{len(rows) - bad}/{len(rows)} configs compile with the expected "
        "tensor-core instruction (and, where ptxas ran, unserialized wgmma)")
    return 1 if bad else 0


# ---------------------------------------------------------------------------
# GPU run
# ---------------------------------------------------------------------------

def import_txl():
    try:
        import txl  # noqa: F401
    except ImportError:
        sys.path.insert(0, PYTHON_DIR)
        import txl  # noqa: F401
    return sys.modules["txl"]


def import_matmul():
    if EXAMPLES not in sys.path:
        sys.path.insert(0, EXAMPLES)
    import matmul
    return matmul


def verify(torch, out, ref, K):
    """(correct, max abs error, max error / max |ref|) of out against the
    fp32 reference; NaN (the poison) anywhere fails."""
    got = out.float()
    err = (got - ref).abs()
    finite = bool(torch.isfinite(got).all().item())
    max_err = float(err.max().item()) if finite else float("inf")
    scale = float(ref.abs().max().item()) or 1.0
    atol = ATOL_PER_SQRT_K * math.sqrt(K)
    ok = finite and bool((err <= atol + RTOL * ref.abs()).all().item())
    return ok, max_err, max_err / scale


class Case:
    """The tensors of one shape: inputs, the fp32 reference, one output."""

    def __init__(self, torch, shape):
        dtype, M, N, K = shape
        tdtype = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
        gen = torch.Generator(device="cuda").manual_seed(M * 31 + N * 7 + K)
        self.a = torch.randn(M, K, device="cuda", generator=gen).to(tdtype)
        self.b = torch.randn(K, N, device="cuda", generator=gen).to(tdtype)
        self.c = torch.empty(M, N, device="cuda", dtype=tdtype)
        tf32 = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = False  # a true fp32 reference
        try:
            self.ref = self.a.float() @ self.b.float()
        finally:
            torch.backends.cuda.matmul.allow_tf32 = tf32
        self.M, self.N, self.K = M, N, K

    def kernel_args(self):
        a, b, c = self.a, self.b, self.c
        return (a, b, c, self.M, self.N, self.K, a.stride(0), a.stride(1),
                b.stride(0), b.stride(1), c.stride(0), c.stride(1))

    def grid(self, cfg):
        bm, bn = cfg[0], cfg[1]
        return (((self.M + bm - 1) // bm) * ((self.N + bn - 1) // bn),)


def measure(torch, case, launch, label, quick):
    """Poisons the output, runs launch once (timing the first call, which
    compiles), verifies, then times it. Returns a result dict."""
    case.c.fill_(float("nan"))
    torch.cuda.synchronize()
    start = time.perf_counter()
    first = launch()
    torch.cuda.synchronize()
    first_s = time.perf_counter() - start
    correct, max_err, rel_err = verify(torch, case.c, case.ref, case.K)
    if not correct:
        log(f"  !! {label}: WRONG output (max abs err {max_err:.3g}, "
            f"{rel_err:.3g} of max |C|)")
    ms = bench_ms(launch, quick)
    result = {"ms": ms, "tflops": tflops(case.M, case.N, case.K, ms),
              "correct": correct, "max_abs_err": max_err,
              "max_err_over_scale": rel_err, "first_call_s": first_s}
    log(f"  {label}: {ms:.4f} ms, {result['tflops']:.1f} TFLOP/s, "
        f"correct={correct} (max err {max_err:.2g}), first call "
        f"{first_s:.2f} s")
    return result, first


def triton_code_info(compiled):
    """What Triton built: registers, spills, the MMAs in its PTX."""
    info = {}
    for attr in ("n_regs", "n_spills"):
        value = getattr(compiled, attr, None)
        if value is not None:
            info[attr] = int(value)
    ptx = getattr(compiled, "asm", {}).get("ptx")
    if ptx:
        info["mma"] = mma_counts(ptx)
    return info


def txl_code_info(txl, kernel, case, cfg, ptxas, scratch):
    """What txl built for this launch of matmul_kernel (launcher_info)."""
    launcher = kernel.warmup(*case.kernel_args(), **launch_kwargs(cfg))
    return launcher_info(txl, launcher, ptxas, scratch)


def launcher_info(txl, launcher, ptxas, scratch):
    """What txl built (a Launcher, from kernel.warmup(...)): target, shared
    bytes, the MMAs in its PTX, and registers/spills by ptxas -v where a
    ptxas is found."""
    meta = launcher.metadata
    info = {"target": meta.get("target"),
            "shared_bytes": meta.get("shared_bytes"),
            "cubin_producer": meta.get("cubin_producer")}
    data = txl._capi.kernel_artifact(launcher.handle, "ptx")
    if data:
        ptx = data.decode("utf-8")
        info["mma"] = mma_counts(ptx)
        try:
            info["resources"] = ptxas_resources(ptxas, ptx, meta.get("target"),
                                                scratch)
        except Exception as e:  # noqa: BLE001
            info["resources"] = {"error": str(e)}
    return info


def measure_cublas(torch, case, label, quick):
    """measure() of torch.matmul(a, b, out=c), or the recorded error."""
    try:
        return measure(torch, case,
                       lambda: torch.matmul(case.a, case.b, out=case.c),
                       f"{label} cuBLAS", quick)[0]
    except Exception as e:  # noqa: BLE001
        return record_error(f"{label} cuBLAS", e)


def time_configs(torch, case, kernel, where, quick, after=None):
    """{config label: measure()'s result} of matmul_kernel's launch
    signature (`kernel`: Triton's or txl's, None when not available) over
    CONFIGS on `case`; a failure is recorded and the next config runs.
    after(cfg, label, first call's return value) runs for each config that
    measured."""
    results = {}
    for cfg in CONFIGS:
        clabel = config_label(cfg)
        if kernel is None:
            results[clabel] = {"error": "not available"}
            continue
        try:
            grid, args = case.grid(cfg), case.kernel_args()
            kwargs = launch_kwargs(cfg)
            r, first = measure(torch, case,
                               lambda g=grid: kernel[g](*args, **kwargs),
                               f"{where} {clabel}", quick)
        except Exception as e:  # noqa: BLE001
            results[clabel] = record_error(f"{where} {clabel}", e)
            continue
        results[clabel] = r
        if after is not None:
            after(cfg, clabel, first)
    return results


def pick_best(per_config):
    """(config label, result) of the fastest verified config, or None."""
    good = [(label, r) for label, r in per_config.items()
            if isinstance(r, dict) and r.get("correct") and r.get("ms")]
    if not good:
        return None
    return min(good, key=lambda item: item[1]["ms"])


def bench_shape(torch, triton_kernel, txl, txl_kernel, shape, quick, ptxas,
                scratch, code_info):
    dtype, M, N, K = shape
    label = shape_label(shape)
    result = {"dtype": dtype, "M": M, "N": N, "K": K,
              "flop": 2 * M * N * K, "cublas": None, "triton": {}, "txl": {}}
    case = Case(torch, shape)
    try:
        result["cublas"] = measure_cublas(torch, case, label, quick)
        for lib, kernel in (("triton", triton_kernel), ("txl", txl_kernel)):
            def facts(cfg, clabel, first, lib=lib, kernel=kernel):
                # Code facts once per (library, dtype, config).
                key = f"{lib} {dtype} {clabel}"
                if key in code_info:
                    return
                try:
                    code_info[key] = (triton_code_info(first)
                                      if lib == "triton" else
                                      txl_code_info(txl, kernel, case, cfg,
                                                    ptxas, scratch))
                except Exception as e:  # noqa: BLE001
                    code_info[key] = {"error": f"{type(e).__name__}: {e}"}
            result[lib] = time_configs(torch, case, kernel, f"{label} {lib}",
                                       quick, facts)
    finally:
        del case
        torch.cuda.empty_cache()
    cublas = result["cublas"] or {}
    cublas_tf = cublas.get("tflops") if cublas.get("correct") else None
    for lib in ("triton", "txl"):
        best = pick_best(result[lib])
        result[f"{lib}_best"] = ({"config": best[0], **best[1]}
                                 if best else None)
    txl_tf = (result["txl_best"] or {}).get("tflops")
    result["txl_over_cublas"] = ratio(txl_tf, cublas_tf)
    result["txl_over_triton"] = ratio(
        txl_tf, (result["triton_best"] or {}).get("tflops"))
    return result


def code_text(info):
    if not info:
        return "-"
    if "error" in info:
        return "code info failed"
    parts = []
    if info.get("mma") is not None:
        parts.append(mma_summary(info["mma"]))
    if "n_regs" in info:
        parts.append(f"{info['n_regs']} regs, {info.get('n_spills', 0)} "
                     "spills")
    res = resources_text(info.get("resources"))
    if res:
        parts.append(res)
    if info.get("shared_bytes") is not None:
        parts.append(f"{info['shared_bytes']} B smem")
    return "; ".join(parts) or "-"


def detail_table(shapes, code_info, libs=("triton", "txl")):
    """Rows of cuBLAS and of every config of each library in `libs`
    (r[lib]: {config label: result}; code facts under "lib dtype config")."""
    lines = ["| shape | library | config | ms | TFLOP/s | verified | code |",
             "|---|---|---|---|---|---|---|"]
    for r in shapes:
        label = f"{r['M']}x{r['N']}x{r['K']} {r['dtype']}"
        cub = r.get("cublas") or {}
        lines.append(f"| {label} | cuBLAS | - | {fmt(cub.get('ms'), 4)} "
                     f"| {fmt(cub.get('tflops'))} "
                     f"| {fmt(cub.get('correct', cub.get('error')))} | - |")
        for lib in libs:
            for clabel, cr in r[lib].items():
                verified = cr.get("correct", "error: " +
                                  str(cr.get("error", "?"))[:80])
                info = code_info.get(f"{lib} {r['dtype']} {clabel}")
                lines.append(
                    f"| {label} | {lib} | {clabel} | {fmt(cr.get('ms'), 4)} "
                    f"| {fmt(cr.get('tflops'))} | {fmt(verified)} "
                    f"| {code_text(info)} |")
    return lines


def summary_table(shapes, lib="txl", extra=()):
    """The short table: cuBLAS, Triton's best and `lib`'s best (the keys
    f"{lib}_best", f"{lib}_over_cublas", f"{lib}_over_triton" of each
    shape's result) with the ratios; `extra` adds columns, each a
    (heading, function of a shape's result -> cell text)."""
    heads = ["shape (MxNxK)", "dtype", "cuBLAS TFLOP/s", "Triton TFLOP/s",
             "Triton config", f"{lib} TFLOP/s", f"{lib} config",
             f"{lib}/cuBLAS", f"{lib}/Triton", *(h for h, _ in extra)]
    lines = ["| " + " | ".join(heads) + " |",
             "|" + "---|" * len(heads)]
    for r in shapes:
        tb, xb = r.get("triton_best") or {}, r.get(f"{lib}_best") or {}
        cub = r.get("cublas") or {}
        cub_tf = cub.get("tflops") if cub.get("correct") else None
        cells = [f"{r['M']}x{r['N']}x{r['K']}", r["dtype"], fmt(cub_tf),
                 fmt(tb.get("tflops")), tb.get("config", "none verified"),
                 fmt(xb.get("tflops")), xb.get("config", "none verified"),
                 fmt(r.get(f"{lib}_over_cublas"), 3),
                 fmt(r.get(f"{lib}_over_triton"), 3),
                 *(cell(r) for _, cell in extra)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def write_json(path):
    if not path:
        return
    RESULTS["errors"] = ERRORS
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(RESULTS, f, indent=2, default=str)
        log(f"\n(full results written to {path})")
    except Exception as e:  # noqa: BLE001
        log(f"cannot write {path}: {e}")


def import_gpu_libs():
    """(torch, triton, txl or None, examples/matmul.py's module), or None
    (said why) without torch, triton, a CUDA device or the example."""
    try:
        import torch
        import triton
    except Exception as e:  # noqa: BLE001
        log(f"cannot import torch/triton: {e} (--dry-run needs neither)")
        return None
    if not torch.cuda.is_available():
        log("no CUDA device (--dry-run compiles without one)")
        return None
    try:
        txl = import_txl()
    except Exception as e:  # noqa: BLE001
        record_error("import txl", e)
        txl = None
    try:
        matmul = import_matmul()
    except Exception as e:  # noqa: BLE001
        record_error("import examples/matmul.py", e)
        return None
    return torch, triton, txl, matmul


INFO_KEYS = ("date", "gpu", "sms", "capability", "torch", "triton", "cuda",
             "python", "txl", "txl_library", "txl_target", "git")


def log_info(info):
    for k in INFO_KEYS:
        if k in info:
            log(f"- {k}: {info.get(k)}")


def make_scratch(prefix, triton):
    """(a temporary folder, the ptxas for -v counts or None). Unless one is
    given, txl's cache goes into the folder: what is measured is compiled
    by this library, never a stale entry."""
    scratch = tempfile.mkdtemp(prefix=prefix)
    os.environ.setdefault("TXL_CACHE_DIR", os.path.join(scratch, "txl-cache"))
    triton_dir = os.path.dirname(getattr(triton, "__file__", "") or ".")
    ptxas = find_ptxas([os.path.join(triton_dir, "backends", "nvidia", "bin")])
    return scratch, ptxas


def each_shape(done, shape_list, bench_one):
    """Appends bench_one(shape) to `done` for each shape as it finishes; a
    failing shape is recorded and left out."""
    for shape in shape_list:
        log(f"## {shape_label(shape)}")
        try:
            done.append(bench_one(shape))
        except Exception as e:  # noqa: BLE001
            record_error(shape_label(shape), e)


def log_errors():
    if ERRORS:
        log("")
        log(f"{len(ERRORS)} measurement(s) failed: "
            + "; ".join(f"{e['where']}: {e['error'][:200]}" for e in ERRORS))


def gpu_run(args):
    quick = args.quick
    libs = import_gpu_libs()
    if libs is None:
        return 1
    torch, triton, txl, matmul = libs
    triton_kernel = matmul.matmul_kernel
    txl_kernel = None
    if txl is not None:
        try:
            txl_kernel = txl.jit(matmul.matmul_kernel)
        except Exception as e:  # noqa: BLE001
            record_error("txl.jit(matmul.matmul_kernel)", e)

    info = header(torch, triton, txl)
    info["txl_target"] = getattr(txl_kernel, "target", None) or "auto"
    RESULTS.update(info=info, quick=quick, num_stages=NUM_STAGES,
                   group_m=GROUP_M,
                   configs=[config_label(c) for c in CONFIGS],
                   note="txl ignores num_stages (no software pipelining "
                        "yet); Triton pipelines with it")
    log("# GEMM benchmark: cuBLAS vs Triton vs txl (examples/matmul.py)"
        + (" [--quick]" if quick else ""))
    log_info(info)
    log(f"- configs: {', '.join(RESULTS['configs'])}, GROUP_M={GROUP_M}")
    log("")

    scratch, ptxas = make_scratch("txl-bench-gemm-", triton)
    code_info = RESULTS["code"] = {}
    shapes = RESULTS["shapes"] = []
    try:
        each_shape(
            shapes, QUICK_SHAPES if quick else SHAPES,
            lambda shape: bench_shape(torch, triton_kernel, txl, txl_kernel,
                                      shape, quick, ptxas, scratch,
                                      code_info))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    write_json(args.json)
    log("")
    log("## Details (every config; code: MMAs in the PTX, registers)")
    for line in detail_table(shapes, code_info):
        log(line)
    log_errors()
    log("")
    log(f"## GEMM, best verified config per library -- {info.get('gpu')}, "
        f"torch {info.get('torch')}, triton {info.get('triton')}, "
        f"{info.get('date')}" + (" [--quick]" if quick else ""))
    log(f"(GROUP_M={GROUP_M}; num_stages={NUM_STAGES} passed to both)")
    for line in summary_table(shapes):
        log(line)
    return 0


def arg_parser(doc, dry_run_help):
    """The options every GEMM benchmark takes: --quick, --json, --dry-run
    (described by dry_run_help) and --txlc."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="3 shapes and few repetitions (a smoke run)")
    p.add_argument("--json", metavar="PATH",
                   help="write all results as JSON to PATH")
    p.add_argument("--dry-run", action="store_true", help=dry_run_help)
    p.add_argument("--txlc", metavar="PATH",
                   help="--dry-run's txlc (default $TXLC or build/bin/txlc)")
    return p


def parse_args():
    p = arg_parser(__doc__, "no GPU: compile each config with txlc and list "
                            "the tensor-core instructions in the PTX")
    p.add_argument("--target", default="sm_90a",
                   choices=sorted(EXPECTED_MMA),
                   help="--dry-run's txlc target (default sm_90a)")
    p.add_argument("--num-stages", type=int, default=NUM_STAGES,
                   help="software pipelining depth handed to Triton and txl "
                        f"(default {NUM_STAGES})")
    return p.parse_args()


def main():
    global NUM_STAGES
    args = parse_args()
    NUM_STAGES = args.num_stages
    return dry_run(args) if args.dry_run else gpu_run(args)


if __name__ == "__main__":
    sys.exit(main())
