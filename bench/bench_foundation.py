#!/usr/bin/env python3
"""Issue-2 foundation benchmark: txl against Triton on the same kernel source.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \
        python3 bench/bench_foundation.py [--quick] [--json results.json]

Measures, in one process (plus two short child processes for cold-process
compile times):
  1. device copy bandwidth (the roofline),
  2. vector add (examples/vector_add.py),
  3. fused softmax (examples/fused_softmax.py) against Triton and torch,
  4. cold compile time of the softmax kernel (txl.compile / triton.compile),
  5. Python launch overhead of a tiny kernel.
Every benchmark runs in its own try/except: a failure prints its error and
the run goes on. A markdown table of targets with PASS/MISS comes last.
"""

import argparse
import json
import os
import shutil
import statistics
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

# Targets from issue 2.
TARGET_BW_FRACTION = 0.92  # of copy bandwidth
TARGET_VS_TRITON = 1.0
TARGET_COMPILE_MS = 150.0
TARGET_LAUNCH_US = 5.0

SOFTMAX_SIG_1024 = "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 1"

RESULTS = {}  # everything measured, written with --json
ERRORS = []


def log(*args):
    print(*args, flush=True)


def record_error(where, exc):
    text = f"{type(exc).__name__}: {exc}"
    ERRORS.append({"where": where, "error": text})
    log(f"  !! {where} failed: {text}")
    tb = traceback.format_exc()
    # Keep the last frames only: enough to locate the failure.
    log("     " + "\n     ".join(tb.strip().splitlines()[-8:]))
    return {"error": text}


def gbps(nbytes, ms):
    if ms is None or ms <= 0:
        return None
    return nbytes / (ms * 1e-3) / 1e9


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt(value, digits=1):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


# ---------------------------------------------------------------------------
# Imports and environment
# ---------------------------------------------------------------------------

def import_txl():
    try:
        import txl  # noqa: F401
    except ImportError:
        sys.path.insert(0, PYTHON_DIR)
        import txl  # noqa: F401
    return sys.modules["txl"]


def import_examples():
    if EXAMPLES not in sys.path:
        sys.path.insert(0, EXAMPLES)
    from vector_add import add_kernel
    from fused_softmax import softmax_kernel
    return add_kernel, softmax_kernel


# ---------------------------------------------------------------------------
# 1. Copy bandwidth
# ---------------------------------------------------------------------------

def bench_copy(torch, quick):
    n = 1 << (24 if quick else 28)
    src = torch.randn(n, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    ms = bench_ms(lambda: dst.copy_(src), quick)
    result = {"n": n, "ms": ms, "gbps": gbps(2 * n * 4, ms)}
    log(f"  copy n=2^{n.bit_length() - 1}: {ms:.4f} ms, "
        f"{result['gbps']:.1f} GB/s")
    del src, dst
    torch.cuda.empty_cache()
    return result


# ---------------------------------------------------------------------------
# 2. Vector add
# ---------------------------------------------------------------------------

def bench_vector_add(torch, triton, txl_add, triton_add, n, quick, copy_gbps):
    block = 1024
    grid = (triton.cdiv(n, block),)
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    y = torch.randn(n, device="cuda", dtype=torch.float32)
    expected = x + y
    out = torch.empty_like(x)
    nbytes = 3 * n * 4
    result = {"n": n, "bytes": nbytes}
    impls = [("triton", triton_add), ("txl", txl_add)]
    for name, kernel in impls:
        if kernel is None:
            result[name] = {"error": "not available"}
            continue
        try:
            launch = (lambda k=kernel: k[grid](x, y, out, n, BLOCK_SIZE=block))
            out.fill_(float("nan"))
            launch()
            torch.cuda.synchronize()
            correct = bool(torch.equal(out, expected))
            if not correct:
                bad = int((out != expected).sum().item())
                log(f"  !! vector add {name} n={n}: {bad} wrong elements")
            ms = bench_ms(launch, quick)
            result[name] = {"ms": ms, "gbps": gbps(nbytes, ms),
                            "correct": correct}
            log(f"  vector add {name:6s} n=2^{n.bit_length() - 1}: "
                f"{ms:.4f} ms, {result[name]['gbps']:.1f} GB/s, "
                f"correct={correct}")
        except Exception as e:  # noqa: BLE001
            result[name] = record_error(f"vector add {name} n={n}", e)
    txl_gbps = result.get("txl", {}).get("gbps")
    result["txl_over_copy"] = ratio(txl_gbps, copy_gbps)
    result["txl_over_triton"] = ratio(
        txl_gbps, result.get("triton", {}).get("gbps"))
    del x, y, out, expected
    torch.cuda.empty_cache()
    return result


# ---------------------------------------------------------------------------
# 3. Softmax
# ---------------------------------------------------------------------------

def softmax_warps(block):
    if block < 2048:
        return 4
    if block < 4096:
        return 8
    return 16


def bench_softmax(torch, triton, txl_softmax, triton_softmax, rows, cols,
                  quick, copy_gbps):
    block = triton.next_power_of_2(cols)
    num_warps = softmax_warps(block)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    programs = min(rows, sms * 4)
    grid = (programs,)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32)
    reference = torch.softmax(x.double(), dim=1).float()
    out = torch.empty_like(x)
    nbytes = 2 * rows * cols * 4
    result = {"rows": rows, "cols": cols, "bytes": nbytes, "block": block,
              "num_warps": num_warps, "grid": programs}
    impls = [("triton", triton_softmax), ("txl", txl_softmax)]
    for name, kernel in impls:
        if kernel is None:
            result[name] = {"error": "not available"}
            continue
        try:
            def launch(k=kernel):
                k[grid](out, x, x.stride(0), out.stride(0), rows, cols,
                        BLOCK_SIZE=block, num_stages=1, num_warps=num_warps)
            out.fill_(float("nan"))
            launch()
            torch.cuda.synchronize()
            max_err = float((out - reference).abs().max().item())
            correct = bool(torch.allclose(out, reference, atol=1e-5,
                                          rtol=1e-3))
            if not correct:
                log(f"  !! softmax {name} {rows}x{cols}: max abs error "
                    f"{max_err:.3g}")
            ms = bench_ms(launch, quick)
            result[name] = {"ms": ms, "gbps": gbps(nbytes, ms),
                            "correct": correct, "max_abs_err": max_err}
            log(f"  softmax {name:6s} {rows}x{cols}: {ms:.4f} ms, "
                f"{result[name]['gbps']:.1f} GB/s, correct={correct} "
                f"(max err {max_err:.2g})")
        except Exception as e:  # noqa: BLE001
            result[name] = record_error(f"softmax {name} {rows}x{cols}", e)
    try:
        ms = bench_ms(lambda: torch.softmax(x, dim=1), quick)
        result["torch"] = {"ms": ms, "gbps": gbps(nbytes, ms)}
        log(f"  softmax torch  {rows}x{cols}: {ms:.4f} ms, "
            f"{result['torch']['gbps']:.1f} GB/s")
    except Exception as e:  # noqa: BLE001
        result["torch"] = record_error(f"softmax torch {rows}x{cols}", e)
    txl_gbps = result.get("txl", {}).get("gbps")
    result["txl_over_copy"] = ratio(txl_gbps, copy_gbps)
    result["txl_over_triton"] = ratio(
        txl_gbps, result.get("triton", {}).get("gbps"))
    result["txl_over_torch"] = ratio(
        txl_gbps, result.get("torch", {}).get("gbps"))
    del x, out, reference
    torch.cuda.empty_cache()
    return result


# ---------------------------------------------------------------------------
# 4. Compile time
# ---------------------------------------------------------------------------

TRITON_SOFTMAX_SIGNATURE = {
    "out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32",
    "out_row_stride": "i32", "n_rows": "i32", "n_cols": "i32",
    "BLOCK_SIZE": "constexpr", "num_stages": "constexpr"}
TRITON_SOFTMAX_CONSTEXPRS = {"BLOCK_SIZE": 1024, "num_stages": 1}


def set_triton_cache_dir(triton, path):
    os.environ["TRITON_CACHE_DIR"] = path
    knobs = getattr(triton, "knobs", None)
    if knobs is not None:
        try:
            knobs.cache.dir = path
        except Exception:  # noqa: BLE001
            pass


def triton_compile_once(triton, softmax_kernel):
    """triton.compile of the softmax kernel (BLOCK_SIZE=1024, num_warps 4);
    the caller has pointed the cache at an empty directory."""
    from triton.compiler import ASTSource
    target = triton.runtime.driver.active.get_current_target()
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(4)}
    try:
        src = ASTSource(fn=softmax_kernel, signature=TRITON_SOFTMAX_SIGNATURE,
                        constexprs=TRITON_SOFTMAX_CONSTEXPRS, attrs=attrs)
    except TypeError:
        src = ASTSource(fn=softmax_kernel, signature=TRITON_SOFTMAX_SIGNATURE,
                        constexprs=TRITON_SOFTMAX_CONSTEXPRS)
    start = time.perf_counter()
    triton.compile(src, target=target,
                   options={"num_warps": 4, "num_stages": 1})
    return (time.perf_counter() - start) * 1e3


def triton_compile_by_launch(torch, triton, softmax_kernel, scratch):
    """Fallback: first launch of a fresh JITFunction with an empty cache
    minus a warm launch of it."""
    fresh = triton.JITFunction(softmax_kernel.fn)
    x = torch.randn(16, 1024, device="cuda")
    out = torch.empty_like(x)

    def launch():
        fresh[(4,)](out, x, x.stride(0), out.stride(0), 16, 1024,
                    BLOCK_SIZE=1024, num_stages=1, num_warps=4)
        torch.cuda.synchronize()
    start = time.perf_counter()
    launch()
    first = time.perf_counter() - start
    start = time.perf_counter()
    launch()
    warm = time.perf_counter() - start
    return (first - warm) * 1e3


def bench_compile_triton(torch, triton, softmax_kernel, reps, scratch):
    old_env = os.environ.get("TRITON_CACHE_DIR")
    times, method = [], "triton.compile(ASTSource)"
    try:
        for i in range(reps):
            path = os.path.join(scratch, f"triton-cache-{i}")
            os.makedirs(path)
            set_triton_cache_dir(triton, path)
            try:
                if method.startswith("triton.compile"):
                    times.append(triton_compile_once(triton, softmax_kernel))
                else:
                    times.append(triton_compile_by_launch(
                        torch, triton, softmax_kernel, scratch))
            except Exception as e:  # noqa: BLE001
                if not method.startswith("triton.compile") or times:
                    raise
                log(f"  triton.compile failed ({type(e).__name__}: {e}); "
                    "timing first launch minus warm launch instead")
                method = "first launch - warm launch"
                times.append(triton_compile_by_launch(
                    torch, triton, softmax_kernel, scratch))
    finally:
        if old_env is None:
            os.environ.pop("TRITON_CACHE_DIR", None)
        else:
            os.environ["TRITON_CACHE_DIR"] = old_env
    result = {"method": method, "times_ms": times,
              "median_ms": statistics.median(times) if times else None}
    log(f"  triton compile ({method}): median {result['median_ms']:.1f} ms "
        f"over {len(times)}: {[round(t, 1) for t in times]}")
    return result


def bench_compile_txl(txl, softmax_kernel, reps, scratch):
    old = {k: os.environ.get(k) for k in ("TXL_ALWAYS_COMPILE",
                                          "TXL_CACHE_DIR")}
    os.environ["TXL_ALWAYS_COMPILE"] = "1"
    os.environ["TXL_CACHE_DIR"] = os.path.join(scratch, "txl-cache-compile")
    kernel = txl.jit(softmax_kernel)
    times = []
    try:
        for _ in range(reps):
            start = time.perf_counter()
            compiled = txl.compile(kernel, SOFTMAX_SIG_1024, num_warps=4)
            times.append((time.perf_counter() - start) * 1e3)
            del compiled
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    result = {"signature": SOFTMAX_SIG_1024, "times_ms": times,
              "median_ms": statistics.median(times)}
    log(f"  txl compile (in process, cache bypassed): median "
        f"{result['median_ms']:.1f} ms over {reps}: "
        f"{[round(t, 1) for t in times]}")
    return result


# The child process: imports everything first, then times library load and
# one compile separately, and prints one JSON line.
COLD_CHILD = r"""
import json, os, sys, time
sys.path.insert(0, {python!r}); sys.path.insert(0, {examples!r})
import torch, triton
from fused_softmax import softmax_kernel
which = {which!r}
out = {{}}
if which == "txl":
    t0 = time.perf_counter()
    import txl
    kernel = txl.jit(softmax_kernel)
    txl.version()  # loads libtxl.so
    try:
        txl.device_capability()  # CUDA driver init, outside the compile
    except Exception:
        pass
    t1 = time.perf_counter()
    txl.compile(kernel, {sig!r}, num_warps=4)
    t2 = time.perf_counter()
    out = {{"import_and_load_ms": (t1 - t0) * 1e3,
            "first_compile_ms": (t2 - t1) * 1e3}}
else:
    from triton.compiler import ASTSource
    target = triton.runtime.driver.active.get_current_target()
    src = ASTSource(fn=softmax_kernel, signature={tsig!r},
                    constexprs={tconst!r},
                    attrs={{(i,): [["tt.divisibility", 16]] for i in range(4)}})
    t1 = time.perf_counter()
    triton.compile(src, target=target, options={{"num_warps": 4, "num_stages": 1}})
    t2 = time.perf_counter()
    out = {{"first_compile_ms": (t2 - t1) * 1e3}}
print("RESULT " + json.dumps(out))
"""


def bench_compile_cold_process(which, scratch):
    env = dict(os.environ)
    env["TXL_ALWAYS_COMPILE"] = "1"
    env["TXL_CACHE_DIR"] = os.path.join(scratch, f"txl-cache-cold-{which}")
    env["TRITON_CACHE_DIR"] = os.path.join(scratch, f"triton-cache-cold")
    code = COLD_CHILD.format(python=PYTHON_DIR, examples=EXAMPLES,
                             which=which, sig=SOFTMAX_SIG_1024,
                             tsig=TRITON_SOFTMAX_SIGNATURE,
                             tconst=TRITON_SOFTMAX_CONSTEXPRS)
    proc = subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, timeout=300)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
            log(f"  {which} compile, first in a fresh process: "
                f"{result['first_compile_ms']:.1f} ms"
                + (f" (import + library load {result['import_and_load_ms']:.1f}"
                   " ms, not included)" if "import_and_load_ms" in result
                   else ""))
            return result
    raise RuntimeError(f"child exited {proc.returncode}: "
                       f"{(proc.stderr or proc.stdout)[-2000:]}")


# ---------------------------------------------------------------------------
# 5. Launch overhead
# ---------------------------------------------------------------------------

def time_launches(torch, launch, count, rounds):
    for _ in range(50):
        launch()
    torch.cuda.synchronize()
    host, total = [], []
    for _ in range(rounds):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(count):
            launch()
        issued = time.perf_counter()
        torch.cuda.synchronize()
        done = time.perf_counter()
        host.append((issued - start) / count * 1e6)
        total.append((done - start) / count * 1e6)
    return {"count": count, "rounds": rounds,
            "host_us": statistics.median(host), "host_us_all": host,
            "with_sync_us": statistics.median(total)}


def bench_launch(torch, txl, txl_add, triton_add, quick):
    count, rounds = (200, 3) if quick else (2000, 5)
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    out = torch.empty_like(x)
    result = {}
    impls = [("triton", triton_add), ("txl", txl_add)]
    for name, kernel in impls:
        if kernel is None:
            result[name] = {"error": "not available"}
            continue
        try:
            def launch(k=kernel):
                k[(1,)](x, y, out, 1, BLOCK_SIZE=1024)
            result[name] = time_launches(torch, launch, count, rounds)
            log(f"  launch {name:6s}: {result[name]['host_us']:.2f} us/launch "
                f"host, {result[name]['with_sync_us']:.2f} us incl. final sync")
        except Exception as e:  # noqa: BLE001
            result[name] = record_error(f"launch {name}", e)
    if txl_add is not None:
        try:
            # The runtime alone: a prebuilt Launcher, values already packed
            # as plain ints (no argument binding, no cache lookup).
            launcher = txl_add.warmup(x, y, out, 1, BLOCK_SIZE=1024)
            import importlib
            stream = importlib.import_module("txl.jit").current_stream()
            values = (x.data_ptr(), y.data_ptr(), out.data_ptr(), 1)
            result["txl_runtime_only"] = time_launches(
                torch, lambda: launcher.launch(1, 1, 1, stream, values),
                count, rounds)
            log(f"  launch txl runtime only (Launcher.launch): "
                f"{result['txl_runtime_only']['host_us']:.2f} us/launch")
        except Exception as e:  # noqa: BLE001
            result["txl_runtime_only"] = record_error(
                "launch txl runtime only", e)
    return result


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def status(value, target, at_most=False):
    if value is None:
        return "n/a"
    ok = value <= target if at_most else value >= target
    return "PASS" if ok else "MISS"


def get(d, *keys):
    for k in keys:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    return d


def detail_tables():
    lines = []
    copy = RESULTS.get("copy", {})
    lines.append(f"Copy roofline: {fmt(copy.get('gbps'))} GB/s "
                 f"(n={copy.get('n')}, read+write)")
    lines.append("")
    lines.append("| kernel | shape | txl GB/s | triton GB/s | torch GB/s "
                 "| txl/copy | txl/triton | verified (txl/triton) |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for r in RESULTS.get("vector_add", []):
        lines.append(
            f"| vector add | n=2^{r['n'].bit_length() - 1} "
            f"| {fmt(get(r, 'txl', 'gbps'))} | {fmt(get(r, 'triton', 'gbps'))}"
            f" | - | {fmt(r.get('txl_over_copy'), 3)} "
            f"| {fmt(r.get('txl_over_triton'), 3)} "
            f"| {fmt(get(r, 'txl', 'correct'))}/"
            f"{fmt(get(r, 'triton', 'correct'))} |")
    for r in RESULTS.get("softmax", []):
        lines.append(
            f"| softmax | {r['rows']}x{r['cols']} "
            f"| {fmt(get(r, 'txl', 'gbps'))} | {fmt(get(r, 'triton', 'gbps'))}"
            f" | {fmt(get(r, 'torch', 'gbps'))} "
            f"| {fmt(r.get('txl_over_copy'), 3)} "
            f"| {fmt(r.get('txl_over_triton'), 3)} "
            f"| {fmt(get(r, 'txl', 'correct'))}/"
            f"{fmt(get(r, 'triton', 'correct'))} |")
    return lines


def target_table():
    rows = []  # (metric, value text, target text, status)
    for r in RESULTS.get("vector_add", []):
        tag = f"vector add n=2^{r['n'].bit_length() - 1}"
        ok = get(r, "txl", "correct")
        rows.append((f"{tag} txl/copy", fmt(r.get("txl_over_copy"), 3),
                     f">= {TARGET_BW_FRACTION}",
                     status(r.get("txl_over_copy"), TARGET_BW_FRACTION)))
        rows.append((f"{tag} txl/triton", fmt(r.get("txl_over_triton"), 3),
                     f">= {TARGET_VS_TRITON}",
                     status(r.get("txl_over_triton"), TARGET_VS_TRITON)))
        if ok is False:
            rows.append((f"{tag} txl correct", "False", "True", "MISS"))
    for r in RESULTS.get("softmax", []):
        tag = f"softmax {r['rows']}x{r['cols']}"
        ok = get(r, "txl", "correct")
        rows.append((f"{tag} txl/copy", fmt(r.get("txl_over_copy"), 3),
                     f">= {TARGET_BW_FRACTION}",
                     status(r.get("txl_over_copy"), TARGET_BW_FRACTION)))
        rows.append((f"{tag} txl/triton", fmt(r.get("txl_over_triton"), 3),
                     f">= {TARGET_VS_TRITON}",
                     status(r.get("txl_over_triton"), TARGET_VS_TRITON)))
        if ok is False:
            rows.append((f"{tag} txl correct", "False", "True", "MISS"))
    comp = RESULTS.get("compile", {})
    value = get(comp, "txl", "median_ms")
    rows.append(("compile softmax txl, median ms (warm process)",
                 fmt(value), f"<= {TARGET_COMPILE_MS:.0f}",
                 status(value, TARGET_COMPILE_MS, at_most=True)))
    value = get(comp, "txl_cold_process", "first_compile_ms")
    rows.append(("compile softmax txl, first in fresh process ms",
                 fmt(value), f"<= {TARGET_COMPILE_MS:.0f}",
                 status(value, TARGET_COMPILE_MS, at_most=True)))
    rows.append(("compile softmax triton, median ms (info)",
                 fmt(get(comp, "triton", "median_ms")), "-", "info"))
    rows.append(("compile softmax triton, first in fresh process ms (info)",
                 fmt(get(comp, "triton_cold_process", "first_compile_ms")),
                 "-", "info"))
    launch = RESULTS.get("launch", {})
    value = get(launch, "txl", "host_us")
    rows.append(("launch txl, us/launch", fmt(value, 2),
                 f"<= {TARGET_LAUNCH_US:.0f}",
                 status(value, TARGET_LAUNCH_US, at_most=True)))
    rows.append(("launch triton, us/launch (info)",
                 fmt(get(launch, "triton", "host_us"), 2), "-", "info"))
    rows.append(("launch txl runtime only, us/launch (info)",
                 fmt(get(launch, "txl_runtime_only", "host_us"), 2), "-",
                 "info"))
    lines = ["| metric | measured | target | status |",
             "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return lines


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="small sizes and few repetitions (a smoke run)")
    p.add_argument("--json", metavar="PATH",
                   help="write all results as JSON to PATH")
    p.add_argument("--skip", default="",
                   help="comma list of benchmarks to skip: "
                        "copy,vadd,softmax,launch,compile")
    return p.parse_args()


def main():
    args = parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    quick = args.quick
    try:
        import torch
        import triton
    except Exception as e:  # noqa: BLE001
        log(f"cannot import torch/triton: {e}")
        return 1
    if not torch.cuda.is_available():
        log("no CUDA device")
        return 1
    try:
        txl = import_txl()
    except Exception as e:  # noqa: BLE001
        record_error("import txl", e)
        txl = None
    add_kernel, softmax_kernel = import_examples()
    txl_add = txl_softmax = None
    if txl is not None:
        try:
            txl_add = txl.jit(add_kernel)
            txl_softmax = txl.jit(softmax_kernel)
        except Exception as e:  # noqa: BLE001
            record_error("txl.jit of the examples", e)

    info = header(torch, triton, txl)
    RESULTS["info"] = info
    RESULTS["quick"] = quick
    log("# txl foundation benchmark (issue 2)" + (" [--quick]" if quick else ""))
    for k in ("date", "gpu", "sms", "capability", "torch", "triton",
              "python", "txl", "txl_library", "git"):
        log(f"- {k}: {info.get(k)}")
    log("")

    scratch = tempfile.mkdtemp(prefix="txl-bench-")
    # Kernels compiled during the run go to a private txl cache, so that a
    # stale cache entry can never be what is measured.
    os.environ.setdefault("TXL_CACHE_DIR", os.path.join(scratch, "txl-cache"))
    try:
        copy_gbps = None
        if "copy" not in skip:
            log("## 1. copy bandwidth")
            try:
                RESULTS["copy"] = bench_copy(torch, quick)
                copy_gbps = RESULTS["copy"]["gbps"]
            except Exception as e:  # noqa: BLE001
                RESULTS["copy"] = record_error("copy", e)

        if "vadd" not in skip:
            log("## 2. vector add")
            RESULTS["vector_add"] = []
            sizes = [1 << 20, 1 << 24] if quick else [1 << 24, 1 << 28]
            for n in sizes:
                try:
                    RESULTS["vector_add"].append(bench_vector_add(
                        torch, triton, txl_add, add_kernel, n, quick,
                        copy_gbps))
                except Exception as e:  # noqa: BLE001
                    record_error(f"vector add n={n}", e)

        if "softmax" not in skip:
            log("## 3. softmax")
            RESULTS["softmax"] = []
            shapes = ([(1024, 1024), (1024, 4096)] if quick else
                      [(4096, 1024), (4096, 4096), (8192, 8192),
                       (16384, 2048)])
            for rows, cols in shapes:
                try:
                    RESULTS["softmax"].append(bench_softmax(
                        torch, triton, txl_softmax, softmax_kernel, rows,
                        cols, quick, copy_gbps))
                except Exception as e:  # noqa: BLE001
                    record_error(f"softmax {rows}x{cols}", e)

        if "launch" not in skip:
            log("## 5. launch overhead")
            try:
                RESULTS["launch"] = bench_launch(torch, txl, txl_add,
                                                 add_kernel, quick)
            except Exception as e:  # noqa: BLE001
                RESULTS["launch"] = record_error("launch", e)

        # Last: it points Triton's cache at throw-away directories.
        if "compile" not in skip:
            log("## 4. compile time (softmax, BLOCK_SIZE=1024, num_warps=4)")
            reps = 3 if quick else 7
            comp = RESULTS["compile"] = {}
            if txl is not None:
                try:
                    comp["txl_cold_process"] = bench_compile_cold_process(
                        "txl", scratch)
                except Exception as e:  # noqa: BLE001
                    comp["txl_cold_process"] = record_error(
                        "txl compile, fresh process", e)
                try:
                    comp["txl"] = bench_compile_txl(txl, softmax_kernel,
                                                    reps, scratch)
                except Exception as e:  # noqa: BLE001
                    comp["txl"] = record_error("txl compile", e)
            try:
                comp["triton_cold_process"] = bench_compile_cold_process(
                    "triton", scratch)
            except Exception as e:  # noqa: BLE001
                comp["triton_cold_process"] = record_error(
                    "triton compile, fresh process", e)
            try:
                comp["triton"] = bench_compile_triton(
                    torch, triton, softmax_kernel, reps, scratch)
            except Exception as e:  # noqa: BLE001
                comp["triton"] = record_error("triton compile", e)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    RESULTS["errors"] = ERRORS
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(RESULTS, f, indent=2, default=str)
            log(f"\n(full results written to {args.json})")
        except Exception as e:  # noqa: BLE001
            log(f"cannot write {args.json}: {e}")

    log("")
    log("## Details")
    for line in detail_tables():
        log(line)
    if ERRORS:
        log("")
        log(f"{len(ERRORS)} benchmark(s) failed: "
            + "; ".join(f"{e['where']}: {e['error'][:200]}" for e in ERRORS))
    log("")
    log(f"## Targets (issue 2) -- {info.get('gpu')}, "
        f"torch {info.get('torch')}, triton {info.get('triton')}, "
        f"{info.get('date')}" + (" [--quick]" if quick else ""))
    for line in target_table():
        log(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
