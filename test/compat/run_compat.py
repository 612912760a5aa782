#!/usr/bin/env python3
"""Compiles every kernel MANIFEST.toml lists, from its unchanged corpus file,
with txlc for its target (PTX assembled by ptxas into a cubin), and prints
one line per case and a summary by failure class.

    python3 test/compat/run_compat.py --txlc build/bin/txlc [-j N] [-k TEXT]
                                      [--update] [--strict] [-v]

EXPECTED holds each case's expected status: PASS, or XFAIL with the reason.
The exit status is non-zero only for a case that is expected to pass and
does not (a regression), for a manifest error, or with --strict for a case
that passes although marked XFAIL (it is fixed: promote it). --update
rewrites EXPECTED from this run, for the lead to review and commit: a case
that still fails keeps its recorded reason while that reason still names
the first error; when the first error has changed, the reason is refreshed
(see refreshed_reason).
"""

import argparse
import ast
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCH_OPTIONS = ("num_warps", "num_warpgroups", "num_stages", "num_ctas")
# A compile that takes longer than this is a hang (a failure of its own).
TIMEOUT_S = 300


class Case:
    def __init__(self, entry, kernel, source):
        self.path = entry["path"]
        self.name = kernel["name"]
        self.target = kernel["target"]
        variant = kernel.get("variant")
        self.id = (f"{self.path}::{self.name}"
                   + (f"#{variant}" if variant else "") + f"@{self.target}")
        self.options = {o: kernel[o] for o in LAUNCH_OPTIONS if o in kernel}
        args = dict(entry.get("args", {}))
        args.update(kernel.get("args", {}))
        self.signature, self.error = _signature(source, self.name, args)


def _kernel_def(tree, name):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def _signature(source, name, args):
    """The txlc --signature for kernel `name`: one entry per parameter, in
    order, from `args` by name; trailing parameters with defaults may be
    left out. Returns (signature, None) or (None, manifest error)."""
    fn = _kernel_def(source, name)
    if fn is None:
        return None, f"no top-level function '{name}' in the file"
    params = fn.args.args
    defaults = len(fn.args.defaults)
    entries = []
    for i, p in enumerate(params):
        if p.arg in args:
            entries.append(str(args[p.arg]))
        elif i >= len(params) - defaults:
            break
        else:
            return None, f"the manifest gives no entry for parameter '{p.arg}'"
    return ", ".join(entries), None


def load_cases(manifest):
    with open(manifest, "rb") as f:
        data = tomllib.load(f)
    cases = []
    for entry in data["file"]:
        path = os.path.join(HERE, entry["path"])
        with open(path, encoding="utf-8") as f:
            source = ast.parse(f.read())
        for kernel in entry.get("kernel", []):
            cases.append(Case(entry, kernel, source))
    ids = Counter(c.id for c in cases)
    dups = [i for i, n in ids.items() if n > 1]
    if dups:
        sys.exit(f"run_compat: duplicate case ids in the manifest: {dups}")
    return cases


def load_expected(path):
    """{id: (status, reason)} from EXPECTED (lines `ID STATUS [REASON]`)."""
    expected = OrderedDict()
    if not os.path.exists(path):
        return expected
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            status = parts[1] if len(parts) > 1 else "PASS"
            expected[parts[0]] = (status, parts[2] if len(parts) > 2 else "")
    return expected


_LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): "
                      r"error: (?P<msg>.*)$")


def classify(rc, stderr):
    """(class, first message): ok, error (a located diagnostic), internal
    (an unlocated or internal error), crash (a signal), timeout."""
    if rc == 0:
        return "ok", ""
    if rc == "timeout":
        return "timeout", f"no result within {TIMEOUT_S} s"
    lines = [l for l in stderr.splitlines() if l.strip()]
    if isinstance(rc, int) and rc < 0:
        return "crash", f"killed by signal {-rc}"
    for line in lines:
        m = _LOCATED.match(line)
        if m:
            where = f"{os.path.basename(m['file'])}:{m['line']}"
            return "error", f"{m['msg']} [{where}]"
    for line in lines:
        if "error" in line.lower():
            return "internal", line.strip()
    return "internal", lines[0].strip() if lines else f"exit status {rc}"


def failure_class(message):
    """The message without its location and the numbers in it, so
    that failures of one cause count together in the summary."""
    text = re.sub(r"\s*\[[^\]]*\]$", "", message)
    text = re.sub(r"\b\d+\b", "N", text)
    text = re.sub(r"kernel '[^']*'", "kernel '…'", text)
    return text[:110]


def blank_host_copy(case, out_dir):
    """The corpus file as `@txl.jit` hands it to the compiler: host-only
    top-level statements blanked (lines and columns kept), in a file of the
    same name so that diagnostics name it."""
    sys.path.insert(0, os.path.join(HERE, "../../python"))
    from txl.jit import kernel_source
    with open(os.path.join(HERE, case.path), encoding="utf-8") as f:
        text = kernel_source(f.read())
    path = os.path.join(out_dir, "src", os.path.basename(case.path))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def compile_case(case, txlc, cubin, keep_dir, blank_host=False):
    out_dir = tempfile.mkdtemp(prefix="txl-compat-", dir=keep_dir)
    source = (blank_host_copy(case, out_dir) if blank_host
              else os.path.join(HERE, case.path))
    cmd = [txlc, source, "--kernel-name", case.name,
           "--signature", case.signature, "--target", case.target,
           "--out-dir", out_dir]
    for option, value in case.options.items():
        cmd += ["--" + option.replace("_", "-"), str(value)]
    if not cubin:
        cmd.append("--no-cubin")
    try:
        run = subprocess.run(cmd, capture_output=True, text=True,
                             timeout=TIMEOUT_S)
        rc, stderr = run.returncode, run.stderr
    except subprocess.TimeoutExpired:
        rc, stderr = "timeout", ""
    kind, message = classify(rc, stderr)
    if kind == "ok" and cubin and not os.path.exists(
            os.path.join(out_dir, case.name + ".cubin")):
        kind, message = "internal", "txlc succeeded but wrote no cubin"
    if keep_dir is None:
        shutil.rmtree(out_dir, ignore_errors=True)
    return kind, message, cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--txlc", default=os.path.join(HERE, "../../build/bin/txlc"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "MANIFEST.toml"))
    ap.add_argument("--expected", default=os.path.join(HERE, "EXPECTED"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("-k", "--filter", default="",
                    help="only the cases whose id contains this text")
    ap.add_argument("--update", action="store_true",
                    help="rewrite EXPECTED from this run")
    ap.add_argument("--strict", action="store_true",
                    help="an XFAIL case that passes fails the run")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep each case's artifacts under DIR")
    ap.add_argument("--blank-host", action="store_true",
                    help="compile what @txl.jit hands the compiler (host code "
                    "blanked) instead of the unchanged file; EXPECTED is for "
                    "the default mode, so compare by eye")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the txlc command of each failing case")
    opts = ap.parse_args()

    txlc = os.path.abspath(opts.txlc)
    if not os.access(txlc, os.X_OK):
        sys.exit(f"run_compat: no txlc at {txlc} (build it or pass --txlc)")
    # Without ptxas txlc hands PTX to the driver: check the PTX only then.
    cubin = shutil.which("ptxas") is not None or os.path.exists(
        "/usr/local/cuda/bin/ptxas")
    cases = [c for c in load_cases(opts.manifest) if opts.filter in c.id]
    expected = load_expected(opts.expected)
    if opts.keep:
        os.makedirs(opts.keep, exist_ok=True)

    results = {}
    runnable = [c for c in cases if c.error is None]
    with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
        futures = {pool.submit(compile_case, c, txlc, cubin, opts.keep,
                               opts.blank_host): c
                   for c in runnable}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future].id] = future.result()

    counts = Counter()
    classes = Counter()
    regressions = []
    for case in cases:
        status, reason = expected.get(case.id, ("PASS", ""))
        if case.error:
            counts["ERROR"] += 1
            regressions.append(case.id)
            print(f"ERROR  {case.id}: manifest: {case.error}")
            continue
        kind, message, cmd = results[case.id]
        if kind == "ok":
            verdict = "XPASS" if status == "XFAIL" else "PASS"
            note = " (fixed: promote it to PASS in EXPECTED)" \
                if verdict == "XPASS" else ""
            print(f"{verdict:6} {case.id}{note}")
        else:
            verdict = "XFAIL" if status == "XFAIL" else "FAIL"
            classes[(kind, failure_class(message))] += 1
            print(f"{verdict:6} {case.id}: {kind}: {message}")
            if opts.verbose:
                print("       " + " ".join(repr(a) if " " in a else a
                                         for a in cmd))
        counts[verdict] += 1
        if verdict == "FAIL" or (verdict == "XPASS" and opts.strict):
            regressions.append(case.id)

    print()
    print(f"compat: {len(cases)} cases: " + ", ".join(
        f"{counts[k]} {k}" for k in ("PASS", "XFAIL", "XPASS", "FAIL", "ERROR")
        if counts[k]) + ("" if cubin else " (no ptxas: PTX only)"))
    if classes:
        print("failure classes (cases, kind, message):")
        for (kind, text), n in classes.most_common():
            print(f"  {n:3}  {kind:8}  {text}")
    if opts.update:
        write_expected(opts.expected, cases, results, expected)
    if regressions:
        shown = " ".join(regressions[:8])
        more = len(regressions) - 8
        print(f"compat: {len(regressions)} unexpected: {shown}"
              + (f" (and {more} more)" if more > 0 else ""))
        return 1
    return 0


def refreshed_reason(old, kind, message):
    """The reason to record for a failing case. An old reason that starts
    with this run's first error is kept whole (the lead's notes included).
    One that names it later on (a `--blank-host` finding, now the first
    error) is kept from there: the errors before it are gone, the notes
    after it still apply. Otherwise the old reason describes an error that
    no longer stops the case, and this run's message replaces it."""
    current = message if kind == "error" else f"{kind}: {message}"
    if old.startswith(current):
        return old
    if current in old:
        return old[old.index(current):]
    return current


def write_expected(path, cases, results, old):
    """EXPECTED from this run: a case that fails keeps its old reason (the
    lead's words) if it had one, else gets the first error message."""
    lines = ["# Expected status of each compat case (run_compat.py).",
             "# ID  PASS | XFAIL  reason.  Regenerate: run_compat.py --update",
             ""]
    for case in cases:
        if case.id not in results:
            continue
        kind, message, _ = results[case.id]
        if kind == "ok":
            lines.append(f"{case.id}  PASS")
        else:
            reason = refreshed_reason(old.get(case.id, ("", ""))[1], kind,
                                      message)
            lines.append(f"{case.id}  XFAIL  {reason}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"compat: wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
