"""The forward's score scale (python/txl/ops/_scales.py, pure Python): the
stand-in for a zero softmax_scale must give exactly what c = 0 gives in
fp32, and a negative scale is refused."""

import importlib.util
import math
import os
import struct

import pytest

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "python", "txl",
                     "ops", "_scales.py")
_spec = importlib.util.spec_from_file_location("_scales", _PATH)
scales = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scales)

LOG2E = 1.4426950408889634


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def test_zero_scale_standin_is_exact():
    c = f32(scales.forward_scale(0.0, 0.0) * LOG2E)
    assert c > 0 and f32(-1.0 / c) != -math.inf
    for e in range(-20, 31):
        for s in (2.0**e, -(2.0**e)):
            # the kernel's exp2 of the scaled score, rounded to fp32
            assert f32(2.0**f32(f32(s) * c)) == 1.0, s


def test_scales_pass_through():
    assert scales.forward_scale(0.125, 0.0) == 0.125
    assert scales.forward_scale(0.0, 30.0) == 0.0  # masked after tanh
    assert scales.forward_scale(-0.5, 30.0) == -0.5


def test_negative_scale_refused():
    with pytest.raises(ValueError, match="softmax_scale"):
        scales.forward_scale(-0.125, 0.0)
