"""pytest setup for the txl Python package (no GPU, no torch needed).

The package is imported from <repo>/python. Tests marked `needs_lib` run
against a real libtxl C API: $TXL_LIBRARY if set, else the fake-pipeline
build (libtxl_fake.so, target txl_fake) found in a build*/lib directory.
"""

import gc
import glob
import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))


def _find_library():
    if os.environ.get("TXL_LIBRARY"):
        return os.environ["TXL_LIBRARY"]
    for pattern in ("build*/lib/libtxl_fake.so",):
        found = sorted(glob.glob(os.path.join(REPO, pattern)))
        if found:
            return found[0]
    return None


LIBRARY = _find_library()
if LIBRARY:
    os.environ["TXL_LIBRARY"] = LIBRARY
IS_FAKE = bool(LIBRARY) and "fake" in os.path.basename(LIBRARY)


@pytest.fixture(autouse=True)
def _collect_before_unpatching(monkeypatch):
    """Tests hand Launchers fake kernel handles while _capi.kernel_free is
    patched out. Collect the garbage before the patch is undone (this
    fixture uses monkeypatch, so its teardown runs first): a Launcher kept
    in a reference cycle (a traceback, say) and collected later would pass
    its fake handle to the real library, which deletes it (a segfault seen
    on a GPU host)."""
    yield
    gc.collect()


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    os.environ["TXL_CACHE_DIR"] = str(tmp_path_factory.mktemp("txl-cache"))
    os.environ.pop("TXL_ALWAYS_COMPILE", None)
    os.environ.pop("TXL_DUMP_DIR", None)
    yield


def library_loads():
    if not LIBRARY:
        return False
    from txl import _capi
    try:
        _capi.lib()
        return True
    except ImportError:
        return False


needs_lib = pytest.mark.skipif(not library_loads(),
                               reason="no libtxl (build target txl_fake)")
needs_fake_lib = pytest.mark.skipif(not (library_loads() and IS_FAKE),
                                    reason="needs libtxl_fake.so")


class FakeTensor:
    """Enough of a tensor for txl: data_ptr() and dtype (torch spelling)."""

    def __init__(self, ptr, dtype="torch.float32"):
        self.ptr = ptr
        self.dtype = dtype

    def data_ptr(self):
        return self.ptr
