"""Row-wise softmax with the whole row held in registers.

Programs stride over rows (persistent style); each row is loaded once,
normalized against its maximum for numerical stability, and written back.
"""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows,
                   n_cols, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row in tl.range(first_row, n_rows, row_step, num_stages=num_stages):
        row_start = in_ptr + row * in_row_stride
        cols = tl.arange(0, BLOCK_SIZE)
        valid = cols < n_cols
        # Padding lanes read -inf so they vanish from both max and sum.
        row_vals = tl.load(row_start + cols, mask=valid, other=-float("inf"))
        shifted = row_vals - tl.max(row_vals, axis=0)
        numer = tl.exp(shifted)
        denom = tl.sum(numer, axis=0)
        result = numer / denom
        out_start = out_ptr + row * out_row_stride
        tl.store(out_start + cols, result, mask=valid)
