# expect: 8:9: error: tl.make_tensor_descriptor: tensor descriptors have rank 1 to 5 (TMA's limit), got block_shape [2, 2, 2, 2, 2, 64]
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, M, M, M, M, N], strides=[N, N, N, N, N, 1], block_shape=[2, 2, 2, 2, 2, 64])
