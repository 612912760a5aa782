# Module-level context of kernels written for Triton and the TXL project
# (issue 13): proton scopes, the teraxlang package name, isinstance and
# hasattr on kernel values.
import triton
import triton.language as tl
import triton.profiler.language as pl
import teraxlang as txl


@triton.jit
def _maybe_desc(desc_or_ptr, BLOCK: tl.constexpr):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, [BLOCK, BLOCK],
                                         [BLOCK, 1], [BLOCK, BLOCK])


@triton.jit
def scoped_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    with pl.scope("kernel"):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        pl.enter_scope("load")
        x = tl.load(x_ptr + offs, mask=offs < n)
        pl.enter_scope("inner")
        pl.exit_scope("load")  # proton scopes may overlap
        pl.exit_scope("inner")
        with pl.scope("store"), pl.scope("store2"):
            tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def type_queries(x_ptr, y_ptr, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(isinstance(SCALE, (int, float)))
    tl.static_assert(not isinstance(x, tl.tensor_descriptor))
    tl.static_assert(isinstance(x, tl.tensor))
    tl.static_assert(hasattr(x, "dtype") and not hasattr(x, "no_such"))
    if hasattr(x, "shape"):
        x = x * SCALE
    tl.store(y_ptr + offs, x)


@triton.jit
def desc_query(d, y_ptr, BLOCK: tl.constexpr):
    desc = _maybe_desc(d, BLOCK)
    tile = desc.load([0, 0])
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs[:, None] * BLOCK + offs[None, :], tile)


@txl.jit
def txl_by_package_name(y_ptr):
    tl.store(y_ptr + txl.tid(0), 1.0)


@triton.jit
def _add_offsets(x, offs: tl.constexpr, N: tl.constexpr):
    # `offs` is annotated constexpr but receives a tensor (Triton allows it)
    return x + offs[:, None] * N


@triton.jit
def constexpr_param_gets_tensor(y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = _add_offsets(tl.zeros([BLOCK, BLOCK], dtype=tl.int32), offs, BLOCK)
    tl.store(y_ptr + offs[:, None] * BLOCK + offs[None, :], x)
