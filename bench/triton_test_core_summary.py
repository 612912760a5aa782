#!/usr/bin/env python3
"""Counts the results of a test_core.py run (bench/run_triton_test_core.sh)
from its junit xml: passed / failed / errors / skipped, and the failures by
class, so that one missing feature counts once.

    python3 bench/triton_test_core_summary.py out/test_core/junit.xml [--examples N]

Several files (the shards of one run, PYTEST_SHARD) are counted together;
gzipped ones (junit.xml.gz, as the runner leaves them) are read as they are.
"""
import gzip
import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

# (class name, pattern over "ExceptionType: message") in order; the first
# match names the class. Anything else is classed by its exception type and
# the message's first line with names and numbers blanked.
CLASSES = [
    ("unsupported tl/txl function", r"'(tl|triton|libdevice|txl)\.[\w.]+' is not supported"),
    ("not supported in kernels", r"not supported in (a )?kernels?"),
    ("Triton compiler internals (.asm['ttgir'/'ttir'], ir, GPUTarget)",
     r"KeyError: '(ttgir|ttir|amdgcn)'|triton\._C|GPUTarget"),
    ("PTX text differs from what the test greps (h.asm['ptx'])",
     r"^AssertionError.*\n(.*\n)*.*in \w+\.asm\[.ptx.\]"),
    ("wrong result (assert)", r"^AssertionError|Mismatched elements|not close"),
    ("compiler error (located)", r"CompilationError: .*:\d+:\d+: error:"),
    ("compiler internal error", r"internal error|verifier|'llvm\.|'txl\.|'txlgpu\."),
    ("unsupported kernel argument", r"unsupported kernel argument|unsupported tensor dtype"),
    ("interpreter-only / not on this GPU", r"interpreter|hip|Blackwell|requires"),
]


def located_message(text):
    """The first located error's message with names and numbers blanked,
    so that one cause counts once."""
    m = re.search(r":\d+:\d+: error: (.*)", text)
    msg = m.group(1) if m else "?"
    msg = re.sub(r"'[^']*'", "'…'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:90]


def classify(text):
    first = text.strip().splitlines()[0] if text.strip() else "(no message)"
    for name, pattern in CLASSES:
        if re.search(pattern, text, re.MULTILINE):
            m = re.search(r"'(tl|triton|libdevice|txl)\.[\w.]+'", text)
            if m and "unsupported" in name:
                return f"{name}: {m.group(0)}"
            if name == "compiler error (located)":
                return f"{name}: {located_message(text)}"
            return name
    first = re.sub(r"'[^']*'", "'…'", first)
    first = re.sub(r"\b\d+\b", "N", first)
    return first[:100]


def read_junit(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            return ET.parse(f).getroot()
    except (OSError, EOFError, ET.ParseError) as e:
        sys.exit(f"triton_test_core_summary: cannot read {path}: {e}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("junit", nargs="+")
    ap.add_argument("--examples", type=int, default=2)
    ap.add_argument("--top", type=int, default=60, help="classes printed")
    opts = ap.parse_args()
    roots = [read_junit(path) for path in opts.junit]
    counts = Counter()
    classes = Counter()
    examples = defaultdict(list)
    skips = Counter()
    for case in (c for root in roots for c in root.iter("testcase")):
        name = case.get("name", "?")
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "error"
                text = (child.get("message") or "") + "\n" + (child.text or "")
                cls = classify(text)
                classes[cls] += 1
                if len(examples[cls]) < opts.examples:
                    examples[cls].append(name)
            elif child.tag == "skipped":
                outcome = "skipped"
                skips[classify(child.get("message") or "")] += 1
        counts[outcome] += 1
    ran = counts["passed"] + counts["failed"] + counts["error"]
    print(f"test_core through txl: {sum(counts.values())} tests: "
          f"{counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['error']} errors, {counts['skipped']} skipped")
    if ran:
        print(f"pass rate of the tests that ran: {100 * counts['passed'] / ran:.1f}%")
    print("failures by class:")
    for cls, n in classes.most_common(opts.top):
        print(f"  {n:6}  {cls}    e.g. {', '.join(examples[cls])}")
    if skips:
        print("skips by reason:")
        for cls, n in skips.most_common(10):
            print(f"  {n:6}  {cls}")


if __name__ == "__main__":
    main()
