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
