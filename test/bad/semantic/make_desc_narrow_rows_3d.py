# expect: 8:9: error: tl.make_tensor_descriptor: Descriptor block shape must have at least 16 bytes in the last dimension: the innermost dimension of block_shape [2, 8, 4] spans 8 bytes (a TMA box row spans a multiple of 16 bytes)
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, M, N], strides=[M * N, N, 1], block_shape=[2, 8, 4])
    d.store([0, 0, 0], d.load([0, 0, 0]))
