"""Compiles every test/bad/semantic file marked `# stage: gpu` (an error a
GPU pass reports, which the IR-generation unit test cannot see) with txlc
and checks the located error its `# expect:` header names: the same
"L:C: error: <substring>" contract as the IRGen corpus test."""
import glob
import os
import subprocess
import sys
import tempfile


def header(src, key):
    tag = f"# {key}:"
    for line in src.splitlines():
        if line.startswith(tag):
            return line[len(tag):].strip()
    return ""


def check(path, out):
    src = open(path).read()
    if header(src, "stage") != "gpu":
        return None
    where, what = header(src, "expect").split(": error: ", 1)
    cmd = ["txlc", path, "--kernel-name", header(src, "kernel") or "kernel",
           "--signature", header(src, "signature"), "--out-dir", out,
           "--no-cubin"]
    for key in ("target", "num-warps", "num-warpgroups", "num-ctas"):
        if header(src, key):
            cmd += [f"--{key}", header(src, key)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    want = f"{os.path.basename(path)}:{where}: error: "
    lines = [l for l in r.stderr.splitlines() if want in l]
    if r.returncode == 0 or not lines or what not in lines[0]:
        return f"{path}: expected '{want}{what}', got:\n{r.stderr}"
    if "internal error" in r.stderr:
        return f"{path}: internal error:\n{r.stderr}"
    return ""


def main():
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as out:
        for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.py"))):
            result = check(path, out)
            if result is None:
                continue
            checked += 1
            if result:
                failures.append(result)
    print(f"checked {checked} GPU-pass bad inputs, {len(failures)} failed")
    for f in failures:
        print(f)
    sys.exit(1 if failures or checked == 0 else 0)


main()
