"""A kernel's source closure: jit helpers and constants of other Python
modules (`from pkg.ops.utils import f`, `import pkg.ops.utils`, `import h
as m`) are handed to the compiler with the kernel (option "modules"), so
they compile through the Python package without any search path. Uses the
lit inputs in test/lit/Inputs/compat_modules; compile-only, real libtxl."""

import json
import os

import pytest

from conftest import REPO
from test_triton_compat import (FAKE_TENSOR, REAL_LIB, check, needs_real_lib,
                                run_python)

MODULES = os.path.join(REPO, "test", "lit", "Inputs", "compat_modules")


def closure_code(body):
    return FAKE_TENSOR + f"""
        import sys
        sys.path[:0] = [{MODULES!r}, {os.path.join(MODULES, "incdir")!r}]
        import txl
        import kernels
""" + body


def test_closure_lists_the_modules_and_their_globals(tmp_path):
    out = check(run_python(closure_code("""
        import json
        k = kernels.from_import
        k.globals_text()
        print(json.dumps({n: sorted(m["globals"]) for n, m in k._modules.items()}))
        d = kernels.dotted
        d.globals_text()
        print(json.dumps(sorted(d._modules)))
    """), tmp_path, TXL_AS_TRITON="1"))
    first, second = out.strip().splitlines()[-2:]
    # The module's jit functions read SCALE, OFFSET (imported from a
    # sibling module) and TUNED (computed by host code from the
    # environment: only Python knows it, so it is handed over).
    assert json.loads(first) == {"pkg.ops.utils": ["OFFSET", "SCALE",
                                                   "TUNED"]}
    # `pkg.ops.utils.scale` and `u.SCALE`: the package and its submodules.
    assert {"pkg", "pkg.ops.utils", "pkg.ops.consts"} <= set(json.loads(second))


@needs_real_lib
@pytest.mark.parametrize("kernel", ["from_import", "dotted", "include_dir",
                                    "reads_unknown"])
def test_helpers_of_other_modules_compile(kernel, tmp_path):
    env = {"TUNED": "5"}
    out = check(run_python(closure_code(f"""
        w = kernels.{kernel}.warmup(x, BLOCK=64, grid=(1,))
        print(w.asm["txlir"])
    """), tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB, **env))
    constants = {"from_import": ["arith.constant 3", "arith.constant 7"],
                 "dotted": ["arith.constant 3", "arith.constant 7"],
                 "include_dir": ["arith.constant 2"],
                 # TUNED = int(os.environ.get("TUNED", "1")): txlc cannot
                 # know it, the Python package hands over its value.
                 "reads_unknown": ["arith.constant 5"]}[kernel]
    for c in constants:
        assert c in out


@needs_real_lib
def test_error_in_a_helper_names_its_file(tmp_path):
    result = run_python(closure_code("""
        kernels.error_in_helper.warmup(x, BLOCK=64, grid=(1,))
    """), tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB)
    assert result.returncode != 0
    assert "pkg/ops/utils.py:25:16: error: name 'no_such_name' is not " \
           "defined" in result.stderr
    assert "kernels.py:38:28: note: in call to 'broken'" in result.stderr
