# The txl surface of the TXL project's kernels (issue 13 point 4).
import triton.language as tl
import txl


@txl.jit
def print_values(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    txl.print(x)
    txl.print("x=", x)


@txl.jit
def one_cta_layout(x_ptr, BLOCK: tl.constexpr):
    layout: tl.constexpr = txl.BlockedLayout(
        size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4],
        order=[0], ctas_per_cga=[1], cta_split_num=[1], cta_order=[0])
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), txl.relayout(x, [BLOCK], layout) + 1)


@txl.jit
def split_across_ctas(x_ptr, BLOCK: tl.constexpr):
    layout: tl.constexpr = txl.BlockedLayout(
        size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4],
        order=[0], ctas_per_cga=[2], cta_split_num=[2], cta_order=[0])
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), txl.relayout(x, [BLOCK], layout))


@txl.jit
def buffer_same_dtype(x_ptr):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    same = buf.to(tl.float16)
    tl.store(x_ptr + tl.arange(0, 64), tl.sum(txl.smem_load(same), 1))


@txl.jit
def buffer_convert(x_ptr):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    wide = buf.to(tl.float32)
