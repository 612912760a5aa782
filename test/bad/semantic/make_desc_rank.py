# expect: 8:9: error: tl.make_tensor_descriptor: shape, strides and block_shape must have the same length, got 2, 1 and 2
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N], block_shape=[64, 64])
    d.store([0, 0], d.load([0, 0]))
