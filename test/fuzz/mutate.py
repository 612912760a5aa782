#!/usr/bin/env python3
"""Mutation fuzzing of txlc's front end and IR builder (no libFuzzer needed).

Seeds are kernel files with `# kernel:` and `# signature:` header lines (the
bad-input corpus test/bad/semantic has them) plus the examples listed in
EXAMPLES. Each mutant (line edits, host-only Python constructs spliced into
kernel bodies, byte edits, line-ending changes) is compiled with
`txlc --no-cubin`; a run that dies on a signal, exits without a located
"error:" message, or outlives the time limit is kept under OUT/ (crash-*,
hang-*, internal-*) with the command that reproduces it.

usage: mutate.py [--txlc build/bin/txlc] [--minutes 20] [--out DIR] [--seed N]
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile
import time

EXAMPLES = [
    ("examples/vector_add.py", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024"),
    ("examples/fused_softmax.py", "softmax_kernel",
     "*fp32:16, *fp32:16, i32, i32, i32, i32, 1024, 4"),
    ("examples/argmax_rows.py", "row_argmax_kernel",
     "*fp16:16, *i32:16, *fp16, i32, i32, 256"),
]

# Valid Python that kernel code cannot hold (and some that it can), spliced
# into kernel bodies; plus raw fragments that break the syntax.
SNIPPETS = [
    "try:\n    pass\nexcept Exception as e:\n    raise e from None",
    "f = lambda x, *a, **k: x", "s = {1, 2}", "d = {**{}, 'a': 1}",
    "if (m := 3) > 2:\n    pass", "yield 1", "x = yield from range(2)",
    "del x", "global g", "class A:\n    pass", "match 1:\n    case 1:\n        pass",
    "type T = int", "x = 1j", "x = f'{1!r:>4}'", "x = [i for i in range(4)]",
    "with a as b, c:\n    pass", "async def g():\n    await g()", "assert False, f'{1=}'",
    "x, *y = 1, 2, 3", "for i in range(3):\n    break\nelse:\n    pass",
    "tl.static_print(f'{BLOCK_SIZE=}')", "x = tl.arange(0, 4)[*()]",
    "x = (", ")", "\\", "'''", "f'{", "\t", "\r", "\r\n", "  ", "\x0c", "é = 1",
    "x = 1if 1 else 2", "x: 'tl.constexpr' = 4", "nonlocal q", "return",
    "while True:\n    pass", "for i in tl.static_range(1 << 20):\n    pass",
]


def read_seed(path):
    text = open(path, "rb").read().decode("utf-8", "surrogateescape")
    kernel = re.search(r"^# kernel: *(\S+)", text, re.M)
    sig = re.search(r"^# signature: *(.*)$", text, re.M)
    if not sig:
        return None
    return text, kernel.group(1) if kernel else "kernel", sig.group(1).strip()


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        i = rng.randrange(len(lines)) if lines else 0
        if op == 0 and lines:
            del lines[i]
        elif op == 1 and lines:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            indent = re.match(r"\s*", lines[i] if lines else "").group(0)
            snippet = rng.choice(SNIPPETS)
            lines[i:i] = [indent + s for s in snippet.split("\n")]
        elif op == 3 and lines:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 4 and lines and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + rng.choice(SNIPPETS)[:rng.randint(1, 6)] + lines[i][k:]
        elif op == 5 and lines and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + lines[i][k + rng.randint(1, 4):]
        elif op == 6 and lines:
            lines[i] = re.sub(r"\d+", lambda m: str(rng.choice(
                [0, 1, 3, 2**31, 2**40, -1, int(m.group(0)) * 2])), lines[i], count=1)
        else:
            sep = rng.choice(["\r", "\r\n", "\n\n"])
            lines[i:i + 1] = (lines[i] if lines else "").split(" ", 1)[:1] + [sep]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--txlc", default="build/bin/txlc")
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--out", default="fuzz-out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    seeds = [s for s in (read_seed(p) for p in sorted(glob.glob("test/bad/semantic/*.py"))) if s]
    for path, kernel, sig in EXAMPLES:
        seeds.append((open(path).read(), kernel, sig))
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="txl-mutate-")
    deadline = time.time() + args.minutes * 60
    runs = found = 0
    cpu_start = os.times()
    while time.time() < deadline:
        text, kernel, sig = rng.choice(seeds)
        src = mutate(text, rng)
        path = os.path.join(work, "m.py")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(src)
        cmd = [args.txlc, path, "--kernel-name", kernel, "--signature", sig,
               "--no-cubin", "--out-dir", work]
        runs += 1
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=args.timeout)
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode < 0 or p.returncode >= 128:
                kind = "crash"
            elif p.returncode != 0 and (": error: " not in err or "internal error" in err):
                kind = "internal"
            else:
                kind = None
        except subprocess.TimeoutExpired:
            kind, err = "hang", ""
        if kind:
            found += 1
            name = os.path.join(args.out, "%s-%d.py" % (kind, runs))
            with open(name, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(src)
            with open(name + ".txt", "w") as f:
                f.write("txlc %s --kernel-name %s --signature '%s' --no-cubin\n%s\n"
                        % (name, kernel, sig, err[-2000:]))
            print("found", name, flush=True)
    t = os.times()
    child_cpu = (t.children_user + t.children_system) - (cpu_start.children_user + cpu_start.children_system)
    print("%d runs, %d findings, %.0f s CPU in txlc" % (runs, found, child_cpu))


if __name__ == "__main__":
    sys.exit(main())
