"""txl: Triton-style GPU kernels compiled by the txl C++ compiler.

Everything goes through libtxl.so with ctypes (no compiled extension); the
library is loaded on first compile, so importing txl needs neither the
library nor torch nor a GPU.
"""

import os as _os

from . import language
from . import testing
from ._capi import CompilationError, TxlError
from .autotune import Config, autotune
from .compiler import CompiledKernel, compile
from .jit import JITFunction, jit
from .language.core import constexpr
from .language.core import _device_stub
from .layouts import (BlockedLayout, DotOperandLayout, NVMMADistributedLayout,
                      NVMMASharedLayout, SliceLayout)
from .tensor_descriptor import TensorDescriptor
from .tensor_map import make_tensor_map
from .triton_compat import enable_triton_compat

__version__ = "0.1.0"

# The explicit-hardware extensions (REFERENCE.md §2): device-only, like
# tl.*; defined so that `txl.smem_alloc` etc. resolve in plain Python.
_DEVICE_FUNCTIONS = """
tid bid tdim bdim warp_id warpgroup_id lane_id cta_rank thread0 wg_thread0
is_warpgroup is_warp reg_alloc reg_dealloc smem_alloc get_buffer smem_load
smem_store smem_slice smem_index smem_trans smem_reshape frag_smem_load
frag_smem_store tmem_alloc tmem_load tmem_store mbar_alloc mbar_expect
mbar_wait mbar_arrive tma_load tma_store tma_store_wait tma_gather
async_load async_load_wait dotx dot_wait bar_arrive bar_wait
fence_proxy_async warp_max warp_sum relayout print_layout print
""".split()
for _name in _DEVICE_FUNCTIONS:
    globals()[_name] = _device_stub("txl." + _name)
del _name


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
