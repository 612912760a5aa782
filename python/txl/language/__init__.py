"""Plain-Python stand-ins for the tile language (`import txl.language as tl`).

Kernel bodies are compiled from source by txl's C++ front end and never run
in Python; this module only has to make module-level code work: annotations
such as ``BLOCK: tl.constexpr``, dtype globals such as ``DT = tl.float16``,
and ``tl.constexpr(128)`` values. It exports exactly the tile functions the
compiler accepts (from its builtin registry, python/txl/_builtins.py), each
a stub with the function's signature and doc (``help(tl.load)``) that
raises a clear error when called from Python.
"""

from . import extra  # noqa: F401  (tl.extra.cuda.libdevice)
from . import math  # noqa: F401
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
from .core import _export, _unsupported


class tensor:
    """A tile-language tensor (for annotations and isinstance in kernels)."""


class tensor_descriptor:
    """A TMA tensor descriptor (for annotations and isinstance in kernels)."""


_MISSING = _export(globals(), "tl.")


def __getattr__(name):
    raise _unsupported("tl", name, _MISSING)
