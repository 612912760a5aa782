"""Per-row maximum and its column index (first one on ties)."""
import triton
import triton.language as tl


@triton.jit
def row_argmax_kernel(x_ptr, idx_ptr, val_ptr, n_cols, stride,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    vals = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols,
                   other=float("-inf"))
    best = tl.argmax(vals, axis=0)
    top = tl.max(vals, axis=0)
    tl.store(idx_ptr + row, best)
    tl.store(val_ptr + row, top)
