"""Stand-ins for `tl.math.*` (exp, log, rsqrt, ...): device-only."""

from .core import _device_stub


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    return _device_stub("tl.math." + name)
