# Kernels the tests compile. Their bodies are only ever read as source.
import txl
import txl.language as tl

SCALE = 3
HALF = 0.5
USE_FAST = True
DT = tl.float16
WRAPPED = tl.constexpr(64)
LAYOUT = txl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
UNUSED_BY_KERNELS = 7
not_a_value = object()


@txl.jit
def helper(x):
    return x * HALF


@txl.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK) * SCALE
    mask = offs < n
    tl.store(out + offs, helper(tl.load(x + offs, mask=mask)) + tl.load(y + offs, mask=mask), mask=mask)


@txl.jit(num_warps=8, do_not_specialize=["n"])
def scaled(x, out, n, alpha, flag, opt, BLOCK: tl.constexpr = 256,
           ACT: tl.constexpr = "relu"):
    v = tl.load(x) * alpha
    if USE_FAST:
        v = v.to(DT)
    tl.store(out, v + WRAPPED + LAYOUT)


@txl.jit
def string_annotated(x, n, BLOCK: "tl.constexpr"):
    pass
