"""GPU tests (pytest): need torch with CUDA and a libtxl.

    # the real compiler
    TXL_LIBRARY=build/lib/libtxl.so python3 -m pytest test/gpu -q
    # the runtime alone, over the stand-in compiler (hand-written PTX)
    TXL_LIBRARY=build/lib/libtxl_fake.so python3 -m pytest test/gpu -q

A process loads one libtxl; tests for the other kind skip themselves.
"""

import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

LIBRARY = os.environ.get("TXL_LIBRARY", "")
IS_FAKE = "fake" in os.path.basename(LIBRARY)

real_compiler = pytest.mark.skipif(IS_FAKE, reason="needs the real compiler")
fake_compiler = pytest.mark.skipif(not IS_FAKE,
                                   reason="needs TXL_LIBRARY=libtxl_fake.so")


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    if "TXL_CACHE_DIR" not in os.environ:
        os.environ["TXL_CACHE_DIR"] = str(tmp_path_factory.mktemp("txl-cache"))
    yield
