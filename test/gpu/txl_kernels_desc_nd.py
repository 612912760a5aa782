"""Kernels of test_tensor_desc_nd.py: tensor descriptors of rank 2 to 5,
from the host (txl.TensorDescriptor) and made in the kernel
(tl.make_tensor_descriptor), through desc.load / desc.store. Each program
moves one block; the block's index is the program id split over the
tensor's blocks, innermost dimension fastest (nb* = blocks per
dimension); AFFINE stores 2 * x + 1, else x itself (a bit-exact round
trip)."""

import triton.language as tl
import txl


@txl.jit
def host_affine_2d(x_desc, y_desc, nb1, AFFINE: tl.constexpr):
    pid = tl.program_id(0)
    b = x_desc.block_shape
    off = [pid // nb1 * b[0], pid % nb1 * b[1]]
    v = x_desc.load(off)
    if AFFINE:
        v = v * 2 + 1
    y_desc.store(off, v)


@txl.jit
def host_affine_3d(x_desc, y_desc, nb1, nb2, AFFINE: tl.constexpr):
    """y = 2 * x + 1 (or y = x), block by block."""
    pid = tl.program_id(0)
    b = x_desc.block_shape
    off = [pid // (nb1 * nb2) * b[0], pid // nb2 % nb1 * b[1],
           pid % nb2 * b[2]]
    v = x_desc.load(off)
    if AFFINE:
        v = v * 2 + 1
    y_desc.store(off, v)


@txl.jit
def host_affine_4d(x_desc, y_desc, nb1, nb2, nb3, AFFINE: tl.constexpr):
    pid = tl.program_id(0)
    b = x_desc.block_shape
    off = [pid // (nb1 * nb2 * nb3) * b[0], pid // (nb2 * nb3) % nb1 * b[1],
           pid // nb3 % nb2 * b[2], pid % nb3 * b[3]]
    v = x_desc.load(off)
    if AFFINE:
        v = v * 2 + 1
    y_desc.store(off, v)


@txl.jit
def host_affine_5d(x_desc, y_desc, nb1, nb2, nb3, nb4, AFFINE: tl.constexpr):
    pid = tl.program_id(0)
    b = x_desc.block_shape
    off = [pid // (nb1 * nb2 * nb3 * nb4) * b[0],
           pid // (nb2 * nb3 * nb4) % nb1 * b[1],
           pid // (nb3 * nb4) % nb2 * b[2], pid // nb4 % nb3 * b[3],
           pid % nb4 * b[4]]
    v = x_desc.load(off)
    if AFFINE:
        v = v * 2 + 1
    y_desc.store(off, v)


@txl.jit
def made_affine_2d(x_ptr, y_ptr, n0, n1, xs0, ys0, nb1, B0: tl.constexpr,
                   B1: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n0, n1], strides=[xs0, 1],
                                   block_shape=[B0, B1])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n0, n1], strides=[ys0, 1],
                                   block_shape=[B0, B1])
    pid = tl.program_id(0)
    off = [pid // nb1 * B0, pid % nb1 * B1]
    yd.store(off, xd.load(off) * 2 + 1)


@txl.jit
def made_affine_3d(x_ptr, y_ptr, n0, n1, n2, xs0, xs1, ys0, ys1, nb1, nb2,
                   B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr):
    """The same through descriptors the kernel makes (runtime shape and
    strides in elements)."""
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n0, n1, n2],
                                   strides=[xs0, xs1, 1],
                                   block_shape=[B0, B1, B2])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n0, n1, n2],
                                   strides=[ys0, ys1, 1],
                                   block_shape=[B0, B1, B2])
    pid = tl.program_id(0)
    off = [pid // (nb1 * nb2) * B0, pid // nb2 % nb1 * B1, pid % nb2 * B2]
    yd.store(off, xd.load(off) * 2 + 1)


@txl.jit
def made_affine_4d(x_ptr, y_ptr, n0, n1, n2, n3, xs0, xs1, xs2, ys0, ys1,
                   ys2, nb1, nb2, nb3, B0: tl.constexpr, B1: tl.constexpr,
                   B2: tl.constexpr, B3: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n0, n1, n2, n3],
                                   strides=[xs0, xs1, xs2, 1],
                                   block_shape=[B0, B1, B2, B3])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n0, n1, n2, n3],
                                   strides=[ys0, ys1, ys2, 1],
                                   block_shape=[B0, B1, B2, B3])
    pid = tl.program_id(0)
    off = [pid // (nb1 * nb2 * nb3) * B0, pid // (nb2 * nb3) % nb1 * B1,
           pid // nb3 % nb2 * B2, pid % nb3 * B3]
    yd.store(off, xd.load(off) * 2 + 1)


@txl.jit
def made_affine_5d(x_ptr, y_ptr, n0, n1, n2, n3, n4, xs0, xs1, xs2, xs3,
                   ys0, ys1, ys2, ys3, nb1, nb2, nb3, nb4,
                   B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr,
                   B3: tl.constexpr, B4: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n0, n1, n2, n3, n4],
                                   strides=[xs0, xs1, xs2, xs3, 1],
                                   block_shape=[B0, B1, B2, B3, B4])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n0, n1, n2, n3, n4],
                                   strides=[ys0, ys1, ys2, ys3, 1],
                                   block_shape=[B0, B1, B2, B3, B4])
    pid = tl.program_id(0)
    off = [pid // (nb1 * nb2 * nb3 * nb4) * B0,
           pid // (nb2 * nb3 * nb4) % nb1 * B1,
           pid // (nb3 * nb4) % nb2 * B2, pid // nb4 % nb3 * B3,
           pid % nb4 * B4]
    yd.store(off, xd.load(off) * 2 + 1)


@txl.jit
def load_block_3d(x_desc, out_ptr, o0, o1, o2, b0: tl.constexpr,
                  b1: tl.constexpr, b2: tl.constexpr):
    """The block at (o0, o1, o2) as desc.load returns it, written densely
    by pointer stores: the parts outside the tensor must read zero."""
    v = x_desc.load([o0, o1, o2])
    i = tl.arange(0, b0)[:, None, None] * (b1 * b2)
    j = tl.arange(0, b1)[None, :, None] * b2
    k = tl.arange(0, b2)[None, None, :]
    tl.store(out_ptr + i + j + k, v)


@txl.jit
def trans_4d(In, Out, s1: tl.constexpr, s2: tl.constexpr, s3: tl.constexpr,
             s4: tl.constexpr, t1: tl.constexpr, t2: tl.constexpr,
             t3: tl.constexpr, t4: tl.constexpr):
    """Triton's test_trans_4d: one whole 4-D tensor as a block, permuted,
    stored through a 1-D descriptor (a block of up to 2048 elements, i.e.
    several 256-element TMA boxes)."""
    n: tl.constexpr = s1 * s2 * s3 * s4
    src = tl.make_tensor_descriptor(In, shape=[s1, s2, s3, s4],
                                    strides=[s4 * s3 * s2, s4 * s3, s4, 1],
                                    block_shape=[s1, s2, s3, s4])
    dst = tl.make_tensor_descriptor(Out, shape=[n], strides=[1],
                                    block_shape=[n])
    v = src.load([0, 0, 0, 0]).permute((t1, t2, t3, t4))
    dst.store([0], v.reshape(dst.block_shape))


@txl.jit
def tma_copy_3d(x_desc, y_desc, nb1, nb2, B0: tl.constexpr, B1: tl.constexpr,
                B2: tl.constexpr, DT: tl.constexpr, ELEM: tl.constexpr):
    """The explicit API: txl.tma_load of a 3-D block into a 3-D shared
    buffer and txl.tma_store of that buffer (a bit-exact copy)."""
    buf = txl.get_buffer(txl.smem_alloc([B0, B1, B2], dtype=DT), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    pid = tl.program_id(0)
    off = [pid // (nb1 * nb2) * B0, pid // nb2 % nb1 * B1, pid % nb2 * B2]
    txl.mbar_expect(bar, B0 * B1 * B2 * ELEM)
    txl.tma_load(buf, x_desc, off, bar)
    txl.mbar_wait(bar, 0)
    txl.tma_store(buf, y_desc, off)
    txl.tma_store_wait(0)
