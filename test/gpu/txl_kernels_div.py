"""fp32/fp16/bf16 division (plain Triton source): `/`, tl.div_rn (IEEE,
rounded to nearest even) and tl.fdiv (approximate by default)."""
import triton.language as tl
import txl


@txl.jit
def divide(x_ptr, y_ptr, q_ptr, rn_ptr, approx_ptr, n, BLOCK: tl.constexpr):
    """q = x / y, rn = tl.div_rn(x, y), approx = tl.fdiv(x, y) (masked
    tail)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(q_ptr + offs, x / y, mask=m)
    tl.store(rn_ptr + offs, tl.div_rn(x, y), mask=m)
    tl.store(approx_ptr + offs, tl.fdiv(x, y), mask=m)
