"""txl: Triton-style GPU kernels compiled by the txl C++ compiler.

Everything goes through libtxl.so with ctypes (no compiled extension); the
library is loaded on first compile, so importing txl needs neither the
library nor torch nor a GPU.
"""

import os as _os

from . import language
from . import testing
from ._capi import CompilationError, TxlError
from .autotune import Config, autotune, heuristics
from .compiler import CompiledKernel, compile
from .jit import JITFunction, jit
from .language.core import constexpr
from .language.core import _device_stub
from .layouts import (BlockedLayout, DotOperandLayout, NVMMADistributedLayout,
                      NVMMASharedLayout, SliceLayout, acc_to_dot_a_columns)
from .tensor_descriptor import TensorDescriptor
from .tensor_map import make_tensor_map
from .triton_compat import enable_triton_compat

from ._version import __version__

# The explicit-hardware extensions (REFERENCE.md §2): device-only stubs,
# with signatures and docs, for exactly the txl.* functions the compiler
# accepts (its builtin registry); the layout classes above stay real.
_MISSING = language.core._export(globals(), "txl.")


def cdiv(x, div):
    """Ceiling division (also callable inside kernels)."""
    return -(-x // div)


def __getattr__(name):
    raise language.core._unsupported("txl", name, _MISSING)


if _os.environ.get("TXL_AS_TRITON") == "1":
    enable_triton_compat()


def version():
    """The library's version string (loads libtxl.so)."""
    from . import _capi
    return _capi.version()


def cache_dir():
    from . import _capi
    return _capi.cache_dir()


def device_capability():
    """(major, minor) of the current CUDA device, via the driver."""
    from . import _capi
    return _capi.device_capability()
