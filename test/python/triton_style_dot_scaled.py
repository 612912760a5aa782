"""tl.dot_scaled written against Triton's API, shaped like Triton's
test_core.py::test_scaled_dot kernel (one tile, the scale of one operand
None, bf16 out), for test_dot_scaled_compile.py: it compiles through txl
under the drop-in switch."""

import triton
import triton.language as tl


@triton.jit
def dot_scale_kernel(a_base, stride_a0, stride_a1, a_scale, b_base, stride_b0,
                     stride_b1, b_scale, out, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     type_a: tl.constexpr, type_b: tl.constexpr):
    A_PER_BYTE: tl.constexpr = 2 if type_a == "e2m1" else 1
    B_PER_BYTE: tl.constexpr = 2 if type_b == "e2m1" else 1
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    a = tl.load(a_base + rows[:, None] * stride_a0 +
                tl.arange(0, BLOCK_K // A_PER_BYTE)[None, :] * stride_a1)
    b = tl.load(b_base + tl.arange(0, BLOCK_K // B_PER_BYTE)[:, None] * stride_b0 +
                cols[None, :] * stride_b1)
    GROUPS: tl.constexpr = BLOCK_K // 32
    if a_scale is not None:
        a_scale = tl.load(a_scale + rows[:, None] * GROUPS +
                          tl.arange(0, GROUPS)[None, :])
    if b_scale is not None:
        b_scale = tl.load(b_scale + cols[:, None] * GROUPS +
                          tl.arange(0, GROUPS)[None, :])
    c = tl.dot_scaled(a, a_scale, type_a, b, b_scale, type_b)
    tl.store(out + rows[:, None] * BLOCK_N + cols[None, :], c.to(tl.bfloat16))
