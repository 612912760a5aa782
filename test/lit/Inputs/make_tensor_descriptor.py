"""Kernels of test/lit/e2e/make-tensor-descriptor.mlir: in-kernel TMA
descriptors (tl.make_tensor_descriptor)."""
import triton.language as tl
import txl


@txl.jit
def make_desc_copy(x_ptr, y_ptr, M, N, stride_x, stride_y,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N],
                                       strides=[stride_x, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N],
                                       strides=[stride_y, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    row = tl.program_id(0) * BLOCK_M
    col = tl.program_id(1) * BLOCK_N
    y_desc.store([row, col], x_desc.load([row, col]))
