"""Kernel arguments -> Triton-style signature entries.

Each runtime argument becomes one signature entry ("*fp16:16", "i32",
"i32:16", "i32:1", "fp32", "i1", "none", "tensordesc<fp16[128, 64]>") and
the value the launcher packs (a tensor descriptor stays an object: the
launcher encodes it with what the compiler chose).
Constexpr arguments become their value as source text. This module is on
the launch hot path: keep the common cases (tensors, small ints) first and
cheap.
"""

import numbers

from . import tensor_descriptor as _tensor_descriptor
from .language import core as _core

# Signature element type of each framework dtype name (torch spellings).
DTYPE_SIG = {
    "float16": "fp16", "half": "fp16",
    "bfloat16": "bf16",
    "float32": "fp32", "float": "fp32",
    "float64": "fp64", "double": "fp64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "i1",
    "float8_e4m3fn": "fp8e4nv",
    "float8_e5m2": "fp8e5",
}
# Triton dtype names that differ from the signature spelling.
TRITON_DTYPE_SIG = {
    "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
    "uint64": "u64", "fp8e4nv": "fp8e4nv", "fp8e5": "fp8e5", "fp16": "fp16",
    "bf16": "bf16", "fp32": "fp32", "fp64": "fp64",
}
SIG_ATTR = {d.sig: d.attr for d in _core.ALL_DTYPES}

_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_U64_MAX = (1 << 64) - 1

# framework dtype object -> ("*T", "*T:16"); filled on first sight.
_pointer_entries = {}
# The same as 16-tuples indexed by data_ptr() & 15 ("*T:16" at 0, "*T"
# elsewhere): an exact-int tuple index is the cheapest lookup Python has,
# for the generated launch code (jit.py).
_pointer_entries16 = {}


def dtype_sig(dtype):
    """Signature element type of a torch/numpy/txl/triton dtype."""
    if isinstance(dtype, _core.dtype):
        return dtype.sig
    name = getattr(dtype, "name", None)
    if isinstance(name, str) and name in TRITON_DTYPE_SIG and \
            type(dtype).__module__.startswith("triton"):
        return TRITON_DTYPE_SIG[name]
    text = str(dtype)
    for prefix in ("torch.", "numpy."):
        if text.startswith(prefix):
            text = text[len(prefix):]
    sig = DTYPE_SIG.get(text)
    if sig is None:
        raise TypeError(f"txl: unsupported tensor dtype {dtype}")
    return sig


def _pointer_entry_pair(dtype):
    pair = _pointer_entries.get(dtype)
    if pair is None:
        ty = "*" + dtype_sig(dtype)
        pair = (ty, ty + ":16")
        try:
            _pointer_entries[dtype] = pair
            _pointer_entries16[dtype] = (pair[1],) + (pair[0],) * 15
        except TypeError:  # an unhashable dtype: just do not cache it
            pass
    return pair


class IntegerArgumentOverflow(OverflowError, ValueError):
    """An integer kernel argument outside [-2**63, 2**64): an OverflowError
    as Triton raises (and a ValueError, as txl raised before)."""


def _int_entry(value, specialize):
    if _I32_MIN <= value <= _I32_MAX:
        ty = "i32"
    elif _I64_MIN <= value <= _I64_MAX:
        ty = "i64"
    elif 0 <= value <= _U64_MAX:
        ty = "u64"
    else:
        raise IntegerArgumentOverflow(
            f"txl: integer argument {value} does not fit 64 bits")
    if not specialize:
        return ty
    if value == 1:
        return ty + ":1"
    if value & 15 == 0:
        return ty + ":16"
    return ty


def arg(a):
    """(signature entry, launch value) of one runtime argument."""
    t = a.__class__
    if t is int:
        if a == 1:
            return "i32:1", 1
        if _I32_MIN <= a <= _I32_MAX:
            return ("i32:16" if a & 15 == 0 else "i32"), a
        return _int_entry(a, True), a
    if t is bool:
        return "i1", a
    if t is float:
        return "fp32", a
    if a is None:
        return "none", None
    if t is _tensor_descriptor.TensorDescriptor:  # no data_ptr(): no raise
        return _tensor_descriptor.signature_entry(a), a
    try:
        ptr = a.data_ptr()
        pair = _pointer_entries.get(a.dtype) or _pointer_entry_pair(a.dtype)
    except AttributeError:
        return _arg_slow(a, True)
    return pair[1] if ptr & 15 == 0 else pair[0], ptr


def arg_nospec(a):
    """Like arg() but ints get no divisibility / ==1 specialization
    (do_not_specialize)."""
    if a.__class__ is int:
        return _int_entry(a, False), a
    return arg(a)


def _arg_slow(a, specialize):
    if isinstance(a, bool):
        return "i1", bool(a)
    if isinstance(a, numbers.Integral):
        return _int_entry(int(a), specialize), int(a)
    if isinstance(a, numbers.Real):
        return "fp32", float(a)
    # Descriptors other than txl's own (arg() takes those), e.g. Triton's,
    # by their attributes: they have no data_ptr(), so they reach here, off
    # the tensor/int hot path.
    if _tensor_descriptor.is_descriptor(a):
        return _tensor_descriptor.signature_entry(a), a
    raise TypeError(
        f"txl: unsupported kernel argument of type {type(a).__name__}; "
        "expected a tensor (data_ptr() and dtype), a TensorDescriptor, "
        "int, float, bool or None")


def _is_constexpr_value(value):
    """txl's or triton's tl.constexpr(...) wrapper."""
    return isinstance(value, _core.constexpr) or (
        type(value).__name__ == "constexpr" and hasattr(value, "value"))


def _builtin_name(value):
    """The compiler's name of a tl function passed as a constexpr (Triton's
    test_globaltimer passes tl.extra.cuda.globaltimer): txl's device stub,
    or Triton's own function (triton.language.extra.cuda.utils.globaltimer
    is tl.extra.cuda.globaltimer). None for anything else."""
    if getattr(value, "_txl_device_stub", False):
        return value.__qualname__
    module = getattr(value, "__module__", None) or ""
    name = getattr(value, "__name__", None)
    if not callable(value) or not name or not (
            module == "triton.language" or
            module.startswith("triton.language.")):
        return None
    from ._builtins import BUILTINS
    known = {row[0] for row in BUILTINS}
    known.update(alias for row in BUILTINS for alias in row[1])
    parts = module.split(".")[2:]
    for k in range(len(parts), -1, -1):
        candidate = ".".join(["tl"] + parts[:k] + [name])
        if candidate in known:
            return candidate
    return None


def constexpr_text(value):
    """A constexpr value as source text for the compiler."""
    if _is_constexpr_value(value):
        return constexpr_text(value.value)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, _core.dtype):
        return "tl." + value.attr
    builtin = _builtin_name(value)
    if builtin is not None:
        return builtin
    try:
        return "tl." + SIG_ATTR[dtype_sig(value)]
    except TypeError:
        pass
    if isinstance(value, (tuple, list)):
        inner = ", ".join(constexpr_text(v) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})"
    raise TypeError(f"txl: unsupported constexpr value {value!r}")


def global_text(value):
    """Source text of a module-level global the kernel may read, or None if
    the value is not something the compiler can use."""
    if _is_constexpr_value(value):
        value = value.value
    if isinstance(value, (bool, int, float, str)) or value is None:
        return constexpr_text(value)
    if isinstance(value, _core.dtype):
        return "tl." + value.attr
    if isinstance(value, tuple):
        inner = [global_text(v) for v in value]
        if any(t is None for t in inner):
            return None
        return f"({', '.join(inner)}{',' if len(inner) == 1 else ''})"
    module = type(value).__module__ or ""
    if module.startswith(("triton", "torch")):
        try:
            return "tl." + SIG_ATTR[dtype_sig(value)]
        except TypeError:
            return None
    render = getattr(type(value), "_txl_source", None)  # txl layouts
    if render is not None:
        return render(value)
    return None
