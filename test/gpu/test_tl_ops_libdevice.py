"""libdevice functions (triton.language.extra.libdevice / tl.extra.cuda.
libdevice) against PyTorch in float64: fp32 and fp64 inputs inside each
function's domain, ragged sizes, poisoned outputs."""

import pytest
import torch

from conftest import real_compiler
from harness import check
from txl_kernels_tl_ops import libdevice_kernel

pytestmark = real_compiler

# name -> (torch reference on float64, input range)
FUNCTIONS = {
    "asin": (torch.asin, (-0.99, 0.99)),
    "acos": (torch.acos, (-0.99, 0.99)),
    "atan": (torch.atan, (-10, 10)),
    "sinh": (torch.sinh, (-5, 5)),
    "cosh": (torch.cosh, (-5, 5)),
    "tan": (torch.tan, (-1.4, 1.4)),
    "asinh": (torch.asinh, (-10, 10)),
    "acosh": (torch.acosh, (1.01, 10)),
    "atanh": (torch.atanh, (-0.99, 0.99)),
    "erfc": (torch.erfc, (-3, 3)),
    "expm1": (torch.expm1, (-3, 3)),
    "log1p": (torch.log1p, (-0.9, 10)),
    "log10": (torch.log10, (0.01, 100)),
    "cbrt": (lambda x: torch.sign(x) * x.abs() ** (1.0 / 3), (-8, 8)),
    "trunc": (torch.trunc, (-10, 10)),
    "round": (lambda x: torch.sign(x) * torch.floor(x.abs() + 0.5), (-10, 10)),
    "rint": (torch.round, (-10, 10)),  # torch.round is half-to-even
    "atan2": (None, (-5, 5)),
}


@pytest.mark.parametrize("n", [1, 1000, 4099])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("fn", sorted(FUNCTIONS))
def test_libdevice(fn, dtype, n):
    ref, (lo, hi) = FUNCTIONS[fn]
    x = (torch.rand(n, device="cuda", dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    y = (torch.rand(n, device="cuda", dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    out = torch.empty_like(x)
    BLOCK = 512

    def launch(out_, x_, y_):
        libdevice_kernel[(-(-n // BLOCK),)](x_, y_, out_, n, FN=fn,
                                            BLOCK=BLOCK)

    def reference(x_, y_):
        return torch.atan2(x_, y_) if fn == "atan2" else ref(x_)

    tol = 1e-5 if dtype == torch.float32 else 1e-12
    check(launch, reference, inputs=[x, y], outputs=[out], atol=tol,
          rtol=tol)
