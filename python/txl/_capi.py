"""ctypes bindings to libtxl.so (include/txl/txl.h).

The library is found, on first use, at $TXL_LIBRARY, else next to this
package (txl/_lib/libtxl.so), else in <repo>/build/lib/libtxl.so.
"""

import ctypes
import os
import threading

c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_uint = ctypes.c_uint

SUCCESS = 0
STATUS_NAMES = {
    1: "invalid argument",
    2: "compile error",
    3: "no CUDA driver",
    4: "CUDA error",
    5: "I/O error",
    6: "not found",
    7: "internal error",
}


class TxlError(RuntimeError):
    """A failed txl C API call; `status` is the TXL_ERROR_* code."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class CompilationError(TxlError):
    """The kernel source has an error; the message holds the diagnostics."""


_lock = threading.Lock()
_lib = None


def candidate_paths():
    here = os.path.dirname(os.path.abspath(__file__))
    paths = []
    env = os.environ.get("TXL_LIBRARY")
    if env:
        paths.append(env)
    paths.append(os.path.join(here, "_lib", "libtxl.so"))
    repo = os.path.dirname(os.path.dirname(here))
    paths.append(os.path.join(repo, "build", "lib", "libtxl.so"))
    return paths


def _declare(lib):
    proto = [
        ("txl_compile", c_int, [c_char_p, c_char_p, c_char_p, c_char_p,
                                c_char_p, ctypes.POINTER(c_void_p)]),
        ("txl_kernel_free", None, [c_void_p]),
        ("txl_kernel_metadata", c_char_p, [c_void_p]),
        ("txl_kernel_artifact", c_int, [c_void_p, c_char_p,
                                        ctypes.POINTER(c_void_p),
                                        ctypes.POINTER(ctypes.c_size_t)]),
        ("txl_kernel_num_params", c_int, [c_void_p]),
        ("txl_kernel_load", c_int, [c_void_p]),
        ("txl_launch", c_int, [c_void_p, c_uint, c_uint, c_uint, c_void_p,
                               c_void_p, c_int]),
        ("txl_launch_packed", c_int, [c_void_p]),
        ("txl_make_tensor_map", c_int, [c_void_p, c_void_p, c_uint,
                                        ctypes.POINTER(ctypes.c_uint64),
                                        ctypes.POINTER(ctypes.c_uint64),
                                        ctypes.POINTER(ctypes.c_uint32),
                                        c_char_p, c_int]),
        ("txl_device_capability", c_int, [ctypes.POINTER(c_int),
                                          ctypes.POINTER(c_int)]),
        ("txl_last_error", c_char_p, []),
        ("txl_version", c_char_p, []),
        ("txl_cache_dir", c_char_p, []),
    ]
    for name, restype, argtypes in proto:
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def lib():
    """The loaded library (loads it on first call)."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            tried = []
            for path in candidate_paths():
                if not os.path.exists(path):
                    tried.append(f"{path} (missing)")
                    continue
                try:
                    # RTLD_LOCAL: keep our symbols out of the global
                    # namespace shared with torch and triton.
                    _lib = _declare(ctypes.CDLL(path, mode=os.RTLD_LOCAL))
                    break
                except OSError as e:
                    tried.append(f"{path} ({e})")
            if _lib is None:
                raise ImportError("cannot find libtxl.so; set TXL_LIBRARY. "
                                  "Tried: " + "; ".join(tried))
    return _lib


def fast_launch_function():
    """txl_launch_packed without argtypes: ctypes passes the packet buffer
    as a pointer with the least per-call work (the launch hot path)."""
    fn = lib()["txl_launch_packed"]  # a fresh function object
    fn.restype = c_int
    fn.argtypes = None
    return fn


def last_error():
    return lib().txl_last_error().decode("utf-8", "replace")


def check(status):
    if status != SUCCESS:
        cls = CompilationError if status == 2 else TxlError
        raise cls(status, last_error() or STATUS_NAMES.get(status, "error"))


def _bytes(text):
    return None if text is None else text.encode("utf-8")


def compile(source, filename, kernel_name, signature, options_json):
    """txl_compile; returns the kernel handle (an int)."""
    handle = c_void_p()
    check(lib().txl_compile(_bytes(source), _bytes(filename),
                            _bytes(kernel_name), _bytes(signature),
                            _bytes(options_json), ctypes.byref(handle)))
    return handle.value


def kernel_free(handle):
    if handle and _lib is not None:
        _lib.txl_kernel_free(handle)


def kernel_metadata(handle):
    text = lib().txl_kernel_metadata(handle)
    if text is None:
        check(1)
    return text.decode("utf-8")


def kernel_artifact(handle, kind, missing_ok=True):
    """The artifact's bytes, or None if the kernel has no such artifact
    (TxlError saying why, with missing_ok=False)."""
    data = c_void_p()
    size = ctypes.c_size_t()
    status = lib().txl_kernel_artifact(handle, _bytes(kind),
                                       ctypes.byref(data), ctypes.byref(size))
    if status == 6 and missing_ok:
        return None
    check(status)
    return ctypes.string_at(data.value, size.value)


def kernel_load(handle):
    check(lib().txl_kernel_load(handle))


def make_tensor_map(base, dims, strides_bytes, box, dtype, swizzle_bytes):
    """A 128-byte TMA descriptor (innermost dimension first)."""
    rank = len(dims)
    out = (ctypes.c_uint8 * 128)()
    check(lib().txl_make_tensor_map(
        out, base, rank, (ctypes.c_uint64 * rank)(*dims),
        (ctypes.c_uint64 * max(rank - 1, 1))(*strides_bytes),
        (ctypes.c_uint32 * rank)(*box), _bytes(dtype), swizzle_bytes))
    return out


def device_capability():
    major, minor = c_int(), c_int()
    check(lib().txl_device_capability(ctypes.byref(major), ctypes.byref(minor)))
    return major.value, minor.value


def version():
    return lib().txl_version().decode()


def cache_dir():
    return lib().txl_cache_dir().decode()
