"""Helpers shared by the benchmark scripts."""

import datetime
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git_revision(repo):
    """The commit the measured library was built from: the bundle's stamp
    (scripts/make-device-bundle.sh; the GPU machine's copy of the tree may
    carry a stale .git), else `git rev-parse` of `repo`, else "?"."""
    stamp = os.path.join(repo, ".bundle", "GIT_HEAD")
    try:
        if os.path.exists(stamp):
            with open(stamp) as f:
                return f.read().strip()
        return subprocess.run(
            ["git", "-C", repo, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10).stdout.strip() or "?"
    except Exception:  # noqa: BLE001
        return "?"


def bench_ms(fn, quick):
    """Median milliseconds of fn() with triton.testing.do_bench (L2 flushed
    between calls)."""
    import triton.testing
    warmup, rep = (5, 20) if quick else (25, 100)
    try:
        return float(triton.testing.do_bench(fn, warmup=warmup, rep=rep,
                                             return_mode="median"))
    except TypeError:  # an older do_bench without return_mode
        return float(triton.testing.do_bench(fn, warmup=warmup, rep=rep,
                                             quantiles=[0.5]))


def bench_rounds(fns, quick, rounds):
    """{name: [ms of each round]}: every fn of `fns` timed with bench_ms
    once per round, the names taken in turn within a round, so that a
    drift of the board's clocks over the run reaches every side alike
    rather than whichever was timed last. Report the median of a side's
    rounds (statistics.median) and the spread of the ratios between
    sides, round by round."""
    times = {name: [] for name in fns}
    for _ in range(max(1, rounds)):
        for name, fn in fns.items():
            times[name].append(bench_ms(fn, quick))
    return times


def header(torch, triton, txl):
    """Where and with what a benchmark ran: date, versions, GPU, library,
    commit."""
    info = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
            "python": sys.version.split()[0],
            "torch": getattr(torch, "__version__", "?"),
            "triton": getattr(triton, "__version__", "?"),
            "cuda": getattr(getattr(torch, "version", None), "cuda", "?")}
    try:
        props = torch.cuda.get_device_properties(0)
        info["gpu"] = torch.cuda.get_device_name(0)
        info["sms"] = props.multi_processor_count
        info["capability"] = f"{props.major}.{props.minor}"
    except Exception as e:  # noqa: BLE001
        info["gpu"] = f"? ({e})"
    try:
        info["txl"] = txl.version() if txl else "not importable"
    except Exception as e:  # noqa: BLE001
        info["txl"] = f"? ({e})"
    info["txl_library"] = os.environ.get("TXL_LIBRARY", "(unset)")
    info["git"] = git_revision(REPO)
    return info
