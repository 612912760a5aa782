"""Host-side checks of attention score scales (pure Python: the CPU tests
load this file without torch)."""

# The scale a zero softmax_scale runs at in the forward (below).
_ZERO_SCALE_STANDIN = 1e-30


def forward_scale(scale, softcap):
    """The forward masks scores to -inf before it scales them (one FMA
    scales and subtracts the running max), which needs a positive scale
    without softcap: -inf * 0 is NaN and -inf * c (c < 0) is +inf. A zero
    scale (uniform attention) runs at 1e-30 instead: |S| * 1e-30 * log2(e)
    < 2^-60 for any |S| < 2^30, and exp2 of that is exactly 1.0 in fp32,
    so P, O and LSE are what c = 0 gives. A negative scale is refused."""
    if softcap != 0.0:
        return scale  # masked after tanh, scaled by softcap * log2(e) > 0
    if scale < 0.0:
        raise ValueError(
            f"txl.ops flash attention: softmax_scale {scale} < 0 (the "
            "forward needs a scale >= 0 unless softcap is set)")
    return scale if scale > 0.0 else _ZERO_SCALE_STANDIN
