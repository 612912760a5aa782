"""Triton's launch keyword extern_libs={"libdevice": path}: the kernel links
that libdevice (a wrong path is an error, never another libdevice
silently). Compile-only with the real libtxl; the GPU runs Triton's
07-extern-functions tutorial with it (test/gpu/test_compat_tutorials.py)."""

import os
import shutil

import pytest

from test_triton_compat import (FAKE_TENSOR, REAL_LIB, check, needs_real_lib,
                                run_python)

pytestmark = needs_real_lib

LIBDEVICE = next((p for p in (os.environ.get("TXL_LIBDEVICE"),
                              "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
                  if p and os.path.isfile(p)), None)
needs_libdevice = pytest.mark.skipif(LIBDEVICE is None,
                                     reason="no libdevice.10.bc")

WARM = FAKE_TENSOR + """
        import txl
        import kernels_libdevice as k
        def warm(libs):
            return k.asin_kernel.warmup(x, y, 1000, BLOCK=128, grid=(8,),
                                        extern_libs=libs)
"""


@needs_libdevice
def test_the_given_libdevice_is_linked(tmp_path):
    copy = tmp_path / "lib" / "libdevice.10.bc"
    copy.parent.mkdir()
    shutil.copy(LIBDEVICE, copy)
    (tmp_path / "not-bitcode.bc").write_text("not bitcode")
    out = check(run_python(WARM + f"""
        w = warm({{"libdevice": {str(copy)!r}}})
        assert "__nv_asin" not in w.asm["ptx"]  # linked and inlined
        assert w is warm({{"libdevice": {str(copy)!r}}})  # cached
        try:
            warm({{"libdevice": "not-bitcode.bc"}})
        except txl.TxlError as e:
            print("BAD BITCODE:", e)
        """, tmp_path, TXL_LIBRARY=REAL_LIB, TXL_LIBDEVICE="/nonexistent"))
    assert "BAD BITCODE:" in out and "cannot read libdevice" in out


def test_bad_extern_libs_are_errors(tmp_path):
    out = check(run_python(WARM + """
        for libs, kind in (({"libdevice": "/no/such.bc"}, FileNotFoundError),
                           ({"ocml": "/x.bc"}, ValueError),
                           (["libdevice"], TypeError)):
            try:
                warm(libs)
                print("NO ERROR", libs)
            except kind as e:
                print("OK", kind.__name__, e)
        """, tmp_path, TXL_LIBRARY=REAL_LIB))
    assert "NO ERROR" not in out and out.count("OK") == 3
    assert "does not exist" in out and "only 'libdevice'" in out
