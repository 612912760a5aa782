"""1-D tensor descriptors (lit e2e/desc-1d, test/gpu/test_compat_hopper.py):
desc.load / desc.store through a host descriptor, the explicit txl.tma_load
/ tma_store of a 1-D shared buffer, and a descriptor made in the kernel."""
import triton.language as tl
import txl


@txl.jit
def desc_copy_1d(x_desc, y_desc, BLOCK: tl.constexpr):
    """y[i*BLOCK:(i+1)*BLOCK] = 2 * x[...] + 1 by desc.load / desc.store."""
    off = tl.program_id(0) * BLOCK
    x = x_desc.load([off])
    y_desc.store([off], x * 2.0 + 1.0)


@txl.jit
def tma_copy_1d(x_desc, y_desc, BLOCK: tl.constexpr):
    """The same copy by hand: a TMA load into a 1-D shared buffer (signalled
    on an mbarrier), then a TMA store out of it."""
    off = tl.program_id(0) * BLOCK
    buf = txl.get_buffer(txl.smem_alloc([BLOCK], dtype=tl.float32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BLOCK * 4)
    txl.tma_load(buf, x_desc, [off], bar)
    txl.mbar_wait(bar, 0)
    v = txl.smem_load(buf)
    txl.smem_store(buf, v * 2.0 + 1.0)
    txl.tma_store(buf, y_desc, [off])
    txl.tma_store_wait(0)


@txl.jit
def made_copy_1d(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """A 1-D descriptor made in the kernel (tl.make_tensor_descriptor)."""
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1],
                                   block_shape=[BLOCK])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n], strides=[1],
                                   block_shape=[BLOCK])
    off = tl.program_id(0) * BLOCK
    yd.store([off], xd.load([off]) * 2.0 + 1.0)
