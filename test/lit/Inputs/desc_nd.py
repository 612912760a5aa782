"""Tensor descriptors of rank 3 to 5 (lit e2e/desc-nd): host descriptors
and descriptors made in the kernel, desc.load / desc.store, txl.tma_load of
a 3-D shared buffer, and Triton's test_trans_4d pattern (a 4-D load
permuted into a 1-D store whose block is 8 TMA boxes of 256)."""
import triton.language as tl
import txl


@txl.jit
def desc_copy_3d(x_desc, y_desc):
    """y = 2 * x + 1, one block at (program 0, 1, 2) x block."""
    i, j, k = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    b = x_desc.block_shape
    off = [i * b[0], j * b[1], k * b[2]]
    y_desc.store(off, x_desc.load(off) * 2 + 1)


@txl.jit
def made_copy_5d(x_ptr, y_ptr, n0, n1, n2, n3, n4,
                 B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr,
                 B3: tl.constexpr, B4: tl.constexpr):
    """A rank-5 descriptor made in the kernel (contiguous strides)."""
    s3 = n4
    s2 = n3 * s3
    s1 = n2 * s2
    s0 = n1 * s1
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n0, n1, n2, n3, n4],
                                   strides=[s0, s1, s2, s3, 1],
                                   block_shape=[B0, B1, B2, B3, B4])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n0, n1, n2, n3, n4],
                                   strides=[s0, s1, s2, s3, 1],
                                   block_shape=[B0, B1, B2, B3, B4])
    off = [tl.program_id(0) * B0, 0, 0, 0, 0]
    yd.store(off, xd.load(off) + 1)


@txl.jit
def tma_load_3d(x_desc, y_ptr, B0: tl.constexpr, B1: tl.constexpr,
                B2: tl.constexpr):
    """txl.tma_load of a 3-D block into a 3-D shared buffer."""
    buf = txl.get_buffer(txl.smem_alloc([B0, B1, B2], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, B0 * B1 * B2 * 2)
    txl.tma_load(buf, x_desc, [tl.program_id(0) * B0, 0, 0], bar)
    txl.mbar_wait(bar, 0)
    v = txl.smem_load(buf)
    o0 = tl.arange(0, B0)[:, None, None] * (B1 * B2)
    o1 = tl.arange(0, B1)[None, :, None] * B2
    o2 = tl.arange(0, B2)[None, None, :]
    tl.store(y_ptr + o0 + o1 + o2, v)


@txl.jit
def trans_4d(In, Out, s1: tl.constexpr, s2: tl.constexpr, s3: tl.constexpr,
             s4: tl.constexpr, t1: tl.constexpr, t2: tl.constexpr,
             t3: tl.constexpr, t4: tl.constexpr):
    """Triton's test_trans_4d: a 4-D block permuted, stored as 1-D."""
    n = s1 * s2 * s3 * s4
    src = tl.make_tensor_descriptor(In, shape=[s1, s2, s3, s4],
                                    strides=[s4 * s3 * s2, s4 * s3, s4, 1],
                                    block_shape=[s1, s2, s3, s4])
    dst = tl.make_tensor_descriptor(Out, shape=[n], strides=[1],
                                    block_shape=[n])
    v = src.load([0, 0, 0, 0]).permute((t1, t2, t3, t4))
    dst.store([0], v.reshape(dst.block_shape))
