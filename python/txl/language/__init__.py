"""Plain-Python stand-ins for the tile language (`import txl.language as tl`).

Kernel bodies are compiled from source by txl's C++ front end and never run
in Python; this module only has to make module-level code work: annotations
such as ``BLOCK: tl.constexpr``, dtype globals such as ``DT = tl.float16``,
and ``tl.constexpr(128)`` values. Any tile function called from Python
raises a clear error.
"""

from . import math  # noqa: F401  (tl.math.exp etc. exist as stubs)
from .core import (  # noqa: F401
    bfloat16,
    constexpr,
    dtype,
    float8e4nv,
    float8e5,
    float16,
    float32,
    float64,
    int1,
    int8,
    int16,
    int32,
    int64,
    pointer_type,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .core import _device_stub


def __getattr__(name):
    # Any other public name (program_id, load, dot, ...) is a tile-language
    # function that only exists inside a compiled kernel.
    if name.startswith("_"):
        raise AttributeError(name)
    return _device_stub("tl." + name)
