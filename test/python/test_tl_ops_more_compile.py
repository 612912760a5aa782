"""Every kernel of test/gpu/txl_kernels_more.py (tl.gather, inline asm,
libdevice calls, tl.cat, tl.swizzle2d, clamp, Python builtins) compiles
through ptxas for the configurations test_tl_ops_more.py launches, without
a GPU; the GPU test checks the numbers."""

import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TXLC = os.path.join(REPO, "build", "bin", "txlc")
KERNELS = os.path.join(REPO, "test", "gpu", "txl_kernels_more.py")

UNARY_FLOAT = ["erfinv", "exp10", "lgamma", "tgamma", "nearbyint", "rcp_rn"]
BINARY_FLOAT = ["hypot", "fmod", "copysign", "fmax", "fmin"]

CASES = [
    ("gather_2d_kernel", "*fp32:16, *i32:16, *fp32:16, i32, i32, i32, 0, 64, 32, 64"),
    ("gather_2d_kernel", "*fp16:16, *i64:16, *fp16:16, i32, i32, i32, 1, 16, 128, 128"),
    ("gather_2d_kernel", "*i8:16, *i32:16, *i8:16, i32, i32, i32, 0, 1, 8, 8"),
    ("gather_1d_kernel", "*fp32:16, *i32:16, *fp32:16, i32, i32, 1024, 64"),
    ("asm_shift_kernel", "*i32:16, *i32:16, i32, 256"),
    ("asm_two_results_kernel", "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, 512"),
    ("asm_widen_i8_kernel", "*i8:16, *i32:16, i32, 128"),
    ("asm_half2_kernel", "*fp16:16, *fp16:16, i32, fp32, 512"),
    ("cat_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, i32, 0, 32, 64"),
    ("cat_kernel", "*i8:16, *i8:16, *i8:16, i32, i32, 1, 16, 4"),
    ("cat_1d_kernel", "*fp32:16, *fp32:16, *fp32:16, 1"),
    ("swizzle2d_kernel", "*i32:16, *i32:16, i32, i32, i32, 8, 32"),
    ("clamp_kernel", "*fp16:16, *fp16:16, i32, fp32, fp32, True, 1024"),
    ("clamp_kernel", "*fp32:16, *fp32:16, i32, fp32, fp32, False, 1024"),
    ("builtins_kernel", "*fp32:16, *fp32:16, i32, 1024"),
    ("map_elementwise_kernel", "*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, fp32, 512"),
    ("desc_functions_kernel", "*fp16:16, *fp16:16, i32, i32, i32, i32, 64, 32"),
]
for fn in UNARY_FLOAT + BINARY_FLOAT:
    for t in ("fp32", "fp64"):
        CASES.append(("libdevice_more_kernel",
                      f"*{t}:16, *{t}:16, *{t}:16, i32, '{fn}', 512"))
for fn in ("fast_expf", "fast_logf", "saturatef"):
    CASES.append(("libdevice_more_kernel",
                  f"*fp32:16, *fp32:16, *fp32:16, i32, '{fn}', 512"))
for t in ("fp32", "fp64"):
    CASES.append(("libdevice_more_kernel",
                  f"*{t}:16, *i32:16, *{t}:16, i32, 'ldexp', 512"))
    for fn in ("isnan", "isinf", "signbit", "ilogb"):
        CASES.append(("libdevice_more_kernel",
                      f"*{t}:16, *{t}:16, *i32:16, i32, '{fn}', 512"))
for t in ("i32", "i64"):
    for fn in ("popc", "clz", "brev"):
        out = t if fn == "brev" else "i32"
        CASES.append(("libdevice_more_kernel",
                      f"*{t}:16, *{t}:16, *{out}:16, i32, '{fn}', 256"))


@pytest.mark.parametrize("target", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("kernel,signature", CASES)
def test_compiles_through_ptxas(tmp_path, kernel, signature, target):
    if kernel == "desc_functions_kernel" and target == "sm_80":
        pytest.skip("tensor descriptors need TMA (sm_90)")
    if not os.path.exists(TXLC):
        pytest.skip("build/bin/txlc not built")
    result = subprocess.run(
        [TXLC, KERNELS, "--kernel-name", kernel, "--signature", signature,
         "--target", target, "--out-dir", str(tmp_path)],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / f"{kernel}.cubin").stat().st_size > 0
    ptx = (tmp_path / f"{kernel}.ptx").read_text()
    assert ".extern .func" not in ptx  # every __nv_* call was linked
