"""Benchmark and test helpers (need torch with CUDA)."""

import statistics


def do_bench(fn, warmup=25, rep=100, return_mode="median", grad_to_none=None,
             quantiles=None):
    """Times `fn()` on the current CUDA stream with CUDA events and returns
    milliseconds (median by default, like triton.testing.do_bench). `warmup`
    and `rep` are target durations in ms; the L2 cache is flushed before
    every timed call."""
    import torch

    fn()
    torch.cuda.synchronize()
    flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    # Estimate one call's time to turn ms budgets into iteration counts.
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        flush.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(end) / 5, 1e-3)
    n_warmup = max(1, int(warmup / estimate))
    n_repeat = max(1, int(rep / estimate))
    for _ in range(n_warmup):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for i in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        flush.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    if quantiles is not None:
        ordered = sorted(times)
        picks = [ordered[min(len(ordered) - 1, int(q * len(ordered)))]
                 for q in quantiles]
        return picks[0] if len(picks) == 1 else picks
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "mean":
        return statistics.fmean(times)
    return statistics.median(times)


def assert_close(actual, expected, atol=1e-2, rtol=1e-3):
    """torch.testing.assert_close with txl's default GEMM tolerances."""
    import torch

    torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol,
                               check_dtype=False)
