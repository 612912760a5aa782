#!/usr/bin/env python3
"""Python-side cost of `kernel[grid](...)`, measurable without a GPU.

    PYTHONPATH=python python3 bench/bench_launch_cpu.py [--count N] [--rounds R]

A vector-add-like kernel is compiled once through the stand-in library
(build/lib/libtxl_fake.so, or $TXL_LIBRARY), then launched N times per round
with the launcher's final foreign call replaced, so no driver is needed:

  - "ctypes": a real foreign call of the same shape (one buffer argument,
    argtypes unset, int result) to libm's fegetround, which ignores its
    argument and returns 0: this includes ctypes' own per-call cost, which
    the txl_launch_packed call pays too;
  - "stub": a Python function returning 0 (the Python part alone).

Without CUDA, txl's current-stream query is set up against a stand-in torch
whose stream functions are C builtins, so it costs what it costs on a GPU
host (see install_stream_getter). With CUDA everything is real, and
`--call real` also times the library's own launch.

Tensors are torch tensors when torch is importable, else small objects
with data_ptr() and dtype. Each line prints the median and the minimum over
the rounds in microseconds per launch (--clock cpu, the default, counts this
thread's CPU time, which a busy host disturbs less than wall time). The H100 numbers in RESULTS.md (6.16 us for a
launch, 3.92 us for Launcher.launch) include the driver's cuLaunchKernelEx;
this benchmark is for comparing Python-side changes on one machine.
"""

import argparse
import ctypes
import ctypes.util
import importlib
import os
import statistics
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# --txl-dir DIR: import txl from DIR (e.g. an older checkout's python/
# directory, for before/after numbers in one session).
_TXL_DIR = os.path.join(REPO, "python")
if "--txl-dir" in sys.argv:
    _TXL_DIR = os.path.abspath(sys.argv[sys.argv.index("--txl-dir") + 1])
sys.path.insert(0, _TXL_DIR)
os.environ.setdefault("TXL_LIBRARY",
                      os.path.join(REPO, "build", "lib", "libtxl_fake.so"))
os.environ.setdefault("TXL_CACHE_DIR", tempfile.mkdtemp(prefix="txl-bench-"))

import txl  # noqa: E402
import txl.language as tl  # noqa: E402
# The module: the name txl.jit is the decorator.
jit_module = importlib.import_module("txl.jit")  # noqa: E402


@txl.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


class FakeTensor:
    """data_ptr() and dtype: all the launch path reads from a tensor."""

    def __init__(self, ptr, dtype="torch.float32"):
        self._ptr = ptr
        self.dtype = dtype

    def data_ptr(self):
        return self._ptr


def _cuda_available():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


CUDA = _cuda_available()


def make_tensors(kind):
    if kind == "torch":
        import torch
        device = "cuda" if CUDA else "cpu"
        return [torch.empty(1 << 12, device=device) for _ in range(3)]
    return [FakeTensor(0x7F0000000000 + (i << 16)) for i in range(3)]


def foreign_noop():
    """A C function called the way the launcher calls txl_launch_packed."""
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    fn = libm["fegetround"]
    fn.restype = ctypes.c_int
    fn.argtypes = None
    return fn


def install_stream_getter():
    """With CUDA: txl's own current-stream query. Without: txl's query set
    up against a stand-in torch whose two stream functions are C builtins of
    torch's call shapes (_cuda_getDevice() -> 0, _cuda_getCurrentRawStream(
    index) -> 0), so txl builds the getter it would build on a GPU host
    (CPU-only torch, or none, makes the query slow or free instead)."""
    if not CUDA:
        stand_in = types.SimpleNamespace(
            _C=types.SimpleNamespace(_cuda_getCurrentRawStream=(0).__mul__,
                                     _cuda_getDevice=int),
            cuda=types.SimpleNamespace(is_available=lambda: True,
                                       init=lambda: None))
        real = sys.modules.get("torch")
        sys.modules["torch"] = stand_in
        try:
            jit_module.current_stream()  # txl rebinds its getter here
        finally:
            if real is None:
                del sys.modules["torch"]
            else:
                sys.modules["torch"] = real
    return jit_module.current_stream


CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


def time_rounds(launch, count, rounds, clock, sync=None):
    for _ in range(min(count, 1000)):
        launch()
    per = []
    for _ in range(rounds):
        if sync:
            sync()  # real launches: start each round with an empty queue
        start = clock()
        for _ in range(count):
            launch()
        per.append((clock() - start) / count * 1e6)
    if sync:
        sync()
    return statistics.median(per), min(per)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: this thread's CPU time (steady on a "
                        "shared host); wall: elapsed time")
    parser.add_argument("--txl-dir", default=_TXL_DIR,
                        help="directory holding the txl package to measure")
    parser.add_argument("--tensors", choices=["auto", "torch", "fake"],
                        default="auto")
    parser.add_argument("--call", default="ctypes,stub",
                        help="comma-separated: ctypes, stub, real (real: "
                        "the library's own launch, needs CUDA)")
    args = parser.parse_args()

    kind = args.tensors
    if kind == "auto":
        try:
            import torch  # noqa: F401
            kind = "torch"
        except ImportError:
            kind = "fake"
    x, y, out = make_tensors(kind)
    stream = install_stream_getter()
    n_big = 100000

    def cdiv(a, b):
        return (a + b - 1) // b

    k = add_kernel
    cases = [
        ("k[(1,)](x, y, out, 1, BLOCK_SIZE=1024)  [bench_foundation]",
         lambda: k[(1,)](x, y, out, 1, BLOCK_SIZE=1024),
         (x, y, out, 1), {"BLOCK_SIZE": 1024}),
        ("k[(98,)](x, y, out, 100000, BLOCK_SIZE=1024)",
         lambda: k[(98,)](x, y, out, n_big, BLOCK_SIZE=1024),
         (x, y, out, n_big), {"BLOCK_SIZE": 1024}),
        ("k[(98,)](x, y, out, 100000, 1024, num_warps=8)",
         lambda: k[(98,)](x, y, out, n_big, 1024, num_warps=8),
         (x, y, out, n_big, 1024), {"num_warps": 8}),
        ("k[lambda meta: (cdiv(n, meta['BLOCK_SIZE']),)](...)",
         lambda: k[lambda meta: (cdiv(n_big, meta["BLOCK_SIZE"]),)](
             x, y, out, n_big, BLOCK_SIZE=1024),
         (x, y, out, n_big), {"BLOCK_SIZE": 1024}),
    ]
    calls = [c for c in args.call.split(",") if c]
    for call in calls:
        if call not in ("ctypes", "stub", "real"):
            parser.error(f"--call: unknown {call!r}")
        if call == "real" and not CUDA:
            parser.error("--call real needs torch with CUDA")
    noop = foreign_noop()
    stub = lambda buffer: 0  # noqa: E731
    sync = None
    if CUDA:
        import torch
        sync = torch.cuda.synchronize

    print(f"txl from {os.path.dirname(txl.__file__)}")
    print(f"current-stream getter: {jit_module._stream!r}"
          + ("" if CUDA else " (over a stand-in torch)"))
    print(f"tensors: {kind}, clock: {args.clock}, "
          f"{args.rounds} rounds x {args.count} launches, "
          f"Python {sys.version.split()[0]}")
    print("us/launch: median and min over the rounds (min is the steadier "
          "one on a busy host)")
    results = []

    def measure(name, launch, launcher):
        real_call = launcher._call
        for call in calls:
            launcher._call = {"ctypes": noop, "stub": stub,
                              "real": real_call}[call]
            med, low = time_rounds(launch, args.count, args.rounds,
                                   CLOCKS[args.clock],
                                   sync if call == "real" else None)
            results.append((call, med, low, name))
            print(f"  {call:6s} {med:6.3f} {low:6.3f}  {name}", flush=True)
        launcher._call = real_call

    for name, launch, call_args, call_kwargs in cases:
        measure(name, launch, k.warmup(*call_args, **call_kwargs))
    # The launcher alone, as bench_foundation's "runtime only" line.
    launcher = k.warmup(x, y, out, 1, BLOCK_SIZE=1024)
    values = (x.data_ptr(), y.data_ptr(), out.data_ptr(), 1)
    current = stream()  # read once, as bench_foundation does
    measure("Launcher.launch alone",
            lambda: launcher.launch(1, 1, 1, current, values), launcher)
    return results


if __name__ == "__main__":
    main()
