"""GPU tests (pytest): need torch with CUDA and a libtxl.

    # the real compiler
    TXL_LIBRARY=build/lib/libtxl.so python3 -m pytest test/gpu -q
    # the runtime alone, over the stand-in compiler (hand-written PTX)
    TXL_LIBRARY=build/lib/libtxl_fake.so python3 -m pytest test/gpu -q

    # an installed wheel (pip install txl-*.whl): its package and library
    TXL_TEST_INSTALLED=1 python3 -m pytest test/gpu -q

A process loads one libtxl; tests for the other kind skip themselves.
"""

import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if not os.environ.get("TXL_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Without torch or a GPU every test module here is reported skipped without
# being imported (they import torch at the top). pytest.skip() cannot be
# raised from a conftest itself, so the modules' collection raises it.
try:
    import torch
    SKIP_REASON = None if torch.cuda.is_available() else "no CUDA device"
except ImportError as e:
    SKIP_REASON = f"torch is not importable ({e})"


class _SkippedModule(pytest.Module):
    def collect(self):
        pytest.skip(SKIP_REASON, allow_module_level=True)


def pytest_pycollect_makemodule(module_path, parent):
    if SKIP_REASON:
        return _SkippedModule.from_parent(parent, path=module_path)
    return None


def pytest_sessionfinish(session, exitstatus):
    # Skipped modules count as "no tests collected" (exit 5): a clean skip.
    if SKIP_REASON and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK


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
