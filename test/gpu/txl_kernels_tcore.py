"""Kernels for the test_core compatibility classes of session 9 (plain
Triton source): scalar atomics whose old value is unused, tl.dot with
fp16/bf16/fp64 results and every fp32 input_precision."""
import triton.language as tl
import txl


@txl.jit
def atomic_scalar_noret_kernel(ptr, x_ptr, OP: tl.constexpr,
                               SEM: tl.constexpr):
    """Program i adds x[i] into ptr[0] (or takes the max/min); the old
    value is never read, as in Triton's test_atomic_rmw."""
    x = tl.load(x_ptr + tl.program_id(0))
    if OP == "add":
        tl.atomic_add(ptr, x, sem=SEM)
    elif OP == "max":
        tl.atomic_max(ptr, x, sem=SEM)
    else:
        tl.atomic_min(ptr, x, sem=SEM)
