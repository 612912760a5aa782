"""Kernels of test_make_desc.py: TMA descriptors the kernel builds itself
with tl.make_tensor_descriptor (Triton's in-kernel form), from a base
pointer, runtime shapes and row strides, and a constexpr block. Also
compiled by test/lit/e2e/make-tensor-descriptor.mlir."""

import triton.language as tl
import txl


@txl.jit
def make_desc_add(x_ptr, y_ptr, out_ptr, M, N, stride_x, stride_y, stride_o,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # out = x + y, one block per program; ragged edges read zeros and
    # stores outside [M, N] are dropped by TMA.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N],
                                       strides=[stride_x, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N],
                                       strides=[stride_y, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    o_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N],
                                       strides=[stride_o, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    x = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y = y_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    o_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], x + y)


@txl.jit
def make_desc_persistent(x_ptr, out_ptr, M, N, stride_x, stride_o,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Persistent: each program makes its two descriptors once, then walks
    # the tiles pid, pid + programs, ... : out = 2 * x + 1.
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N],
                                       strides=[stride_x, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    o_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N],
                                       strides=[stride_o, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    tiles_n = tl.cdiv(N, BLOCK_N)
    tiles = tl.cdiv(M, BLOCK_M) * tiles_n
    for t in range(pid, tiles, programs):
        row = (t // tiles_n) * BLOCK_M
        col = (t % tiles_n) * BLOCK_N
        x = x_desc.load([row, col])
        o_desc.store([row, col], x * 2 + 1)


@txl.jit
def make_desc_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk,
                     stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    # The tutorial descriptor matmul with A, B and C described in the
    # kernel: register operands by desc.load, tl.dot, desc.store.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K],
                                       strides=[stride_am, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N],
                                       strides=[stride_bk, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N],
                                       strides=[stride_cm, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


@txl.jit
def make_desc_tma(x_ptr, out_ptr, M, N, stride_x, stride_o,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  DT: tl.constexpr):
    # An in-kernel descriptor where txl.tma_load / tma_store expect one:
    # out = x * 2 + 1 through an explicit shared buffer and mbarrier.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N],
                                       strides=[stride_x, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    o_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N],
                                       strides=[stride_o, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    buf = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=DT), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BLOCK_M * BLOCK_N * DT.primitive_bitwidth // 8)
    txl.tma_load(buf, x_desc, [pid_m * BLOCK_M, pid_n * BLOCK_N], bar)
    txl.mbar_wait(bar, 0)
    x = txl.smem_load(buf)
    txl.smem_store(buf, x * 2 + 1)
    txl.tma_store(buf, o_desc, [pid_m * BLOCK_M, pid_n * BLOCK_N])
    txl.tma_store_wait(0)
