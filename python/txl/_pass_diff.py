"""Pass-by-pass IR for @txl.jit(diff_mode=..., diff_select=N, log_dir=DIR).

With ``diff_mode`` set, every compile of the kernel writes each stage's
input and the IR after each of its passes into ``DIR/passes-<kernel>``
(the compiler's ``print_after_all`` option, the same files as
``txlc --print-after-all``). Then, for the chosen stage:

* without ``diff_select``: the stage's passes, numbered as diff_select
  counts them, are printed to stderr;
* with ``diff_select=N``: the unified diff pass N made is written to
  ``DIR/<kernel>.<stage>.pass<N>.diff`` and printed to stderr.

diff_mode names the stage: 'txlir' (tile passes), 'txlgir' (GPU passes:
layouts, pipelining, shared memory), 'llir' (lowering to the LLVM
dialect). 'ptx' has no passes of ours -- one LLVM codegen step makes it --
so it is refused with that reason.
"""

import difflib
import os
import re
import sys
import tempfile

STAGES = {"txlir": "txlir", "txlgir": "txlgir", "llir": "llvm"}
_DUMP = re.compile(r"^(?P<stage>[a-z]+)-(?P<n>\d+)-(?P<arg>.+)\.mlir$")


def check_options(diff_mode, diff_select):
    """Validates the jit's debug options (raises TypeError/ValueError)."""
    if diff_mode is None:
        if diff_select is not None:
            raise TypeError("txl.jit: diff_select needs diff_mode")
        return
    if diff_mode == "ptx":
        raise ValueError("txl.jit: diff_mode='ptx' has no passes to diff (one "
                         "LLVM codegen step makes the PTX); use 'llir' for "
                         "the last passes, or compare two compiles' .ptx")
    if diff_mode not in STAGES:
        raise ValueError(f"txl.jit: diff_mode must be one of "
                         f"{sorted(STAGES)}, got {diff_mode!r}")
    if diff_select is not None and (not isinstance(diff_select, int)
                                    or diff_select < 1):
        raise ValueError("txl.jit: diff_select must be a pass number >= 1")


def dump_dir(kernel_name, log_dir):
    base = log_dir or tempfile.mkdtemp(prefix="txl-passes-")
    path = os.path.join(base, f"passes-{kernel_name}")
    os.makedirs(path, exist_ok=True)
    return path


def stage_dumps(directory, stage):
    """{pass number: (pass argument, path)} of one stage's dump files."""
    found = {}
    for name in os.listdir(directory):
        m = _DUMP.match(name)
        if m and m["stage"] == stage:
            found[int(m["n"])] = (m["arg"], os.path.join(directory, name))
    return found


def report(kernel_name, directory, diff_mode, diff_select, log_dir,
           out=None):
    """Prints the pass list or writes and prints pass N's diff (to `out`,
    default stderr); returns the diff text (None when listing)."""
    out = out or sys.stderr
    stage = STAGES[diff_mode]
    dumps = stage_dumps(directory, stage)
    if diff_select is None:
        print(f"txl: passes of stage {diff_mode} for {kernel_name} "
              f"(IR files in {directory}):", file=out)
        for n in sorted(k for k in dumps if k > 0):
            print(f"  {n:3d}  {dumps[n][0]}", file=out)
        return None
    if diff_select not in dumps or diff_select - 1 not in dumps:
        raise ValueError(f"txl.jit: stage {diff_mode} has no pass "
                         f"{diff_select} (it ran {len(dumps) - 1} passes)")
    (_, before), (arg, after) = dumps[diff_select - 1], dumps[diff_select]
    with open(before) as f:
        old = f.readlines()
    with open(after) as f:
        new = f.readlines()
    text = "".join(difflib.unified_diff(
        old, new, fromfile=f"before {arg}", tofile=f"after {arg}"))
    if log_dir:
        path = os.path.join(log_dir,
                            f"{kernel_name}.{diff_mode}.pass{diff_select}.diff")
        with open(path, "w") as f:
            f.write(text)
    print(f"txl: pass {diff_select} of {diff_mode} ({arg}) for "
          f"{kernel_name}:", file=out)
    print(text or "(the pass changed nothing)", file=out)
    return text
