import triton.language as tl
import txl


@txl.jit
def prefetch_rows(x, out, row_stride, n, ROW_BYTES: tl.constexpr):
    # Lane 0 of each warp asks L2 for one row of ROW_BYTES bytes (a
    # compile-time count); thread 0 then for the n 16-byte units after the
    # rows (a runtime count), under an `if` instead of a predicate.
    row = tl.program_id(0) * 4 + txl.warp_id()
    txl.prefetch_l2(x + row * row_stride, ROW_BYTES,
                    pred=txl.lane_id() == 0)
    if txl.tid(0) == 0:
        txl.prefetch_l2(x + 4 * row_stride, n * 16)
    tl.store(out + tl.program_id(0), row)
