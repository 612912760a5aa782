"""SASS and the viewer page from Python: kernel.asm['sass'] (nvdisasm, made
on first access) and kernel.html(). Compile-only with the real libtxl (no
GPU); the page itself is clicked through in headless Chromium by
test/viewer/check_viewer.sh."""

import json
import os
import re

import pytest

from test_triton_compat import REAL_LIB, check, needs_real_lib, run_python
from txl._kernel_info import find_nvdisasm

pytestmark = needs_real_lib
needs_nvdisasm = pytest.mark.skipif(find_nvdisasm() is None,
                                    reason="no nvdisasm (pip install "
                                    "nvidia-cuda-nvdisasm)")

COMPILE = """
import json, txl
import kernels_for_tests as K
kernel = txl.jit(K.add.fn, dump_locations={locations})
k = txl.compile(kernel, "*fp32:16,*fp32:16,*fp32:16,i32,256")
"""


@needs_nvdisasm
def test_sass_on_compiled_kernels(tmp_path):
    out = check(run_python(COMPILE.format(locations=False) + """
sass = k.asm["sass"]
assert "sass" in k.asm and k.asm.get("sass") is sass
print(json.dumps(sass))
""", tmp_path, TXL_LIBRARY=REAL_LIB))
    sass = json.loads(out)
    assert re.search(r"//## File \".*kernels_for_tests.py\", line 2[2-5]", sass)
    assert "LDG" in sass and "STG" in sass and "EXIT" in sass


@needs_nvdisasm
def test_html_maps_ir_ptx_and_sass_rows_to_lines(tmp_path):
    check(run_python(COMPILE.format(locations=True) + """
page = k.html("viewer.html")
data = json.loads(page.split("const DATA = ", 1)[1].split(";\\n", 1)[0])
lines = {l["name"]: {r[1] for r in l["rows"] if r[1]} for l in data["listings"]}
# the body of add() is lines 22-25 of kernels_for_tests.py
for name in ("txlir", "txlgir", "llir", "ptx", "sass"):
    assert lines[name] & {22, 23, 24, 25}, (name, lines[name])
assert data["counts"]["25"]["memory"] >= 2  # the loads and the store
assert open("viewer.html").read() == page
""", tmp_path, TXL_LIBRARY=REAL_LIB))


def test_sass_without_nvdisasm_says_why(tmp_path):
    out = run_python(COMPILE.format(locations=False) + """
try:
    k.asm["sass"]
except txl.TxlError as e:
    print("ERROR", e)
assert k.asm.get("sass") is None
""", tmp_path, TXL_LIBRARY=REAL_LIB, TXL_NVDISASM="/nonexistent",
                     PATH="/usr/bin:/bin", CUDA_HOME="/nonexistent")
    text = check(out)
    if os.access("/usr/local/cuda/bin/nvdisasm", os.X_OK):
        pytest.skip("the library finds /usr/local/cuda/bin/nvdisasm itself")
    assert "nvdisasm not found" in text
