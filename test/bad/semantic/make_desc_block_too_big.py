# expect: 9:9: error: tl.make_tensor_descriptor: block_shape [256, 256, 256] would be 1024 TMA boxes (at most 256 elements per dimension, rows one swizzle span wide); at most 256 are supported, use a smaller block
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    # Rows of 512 bytes are four 128-byte boxes per row block: 256 x 4.
    d = tl.make_tensor_descriptor(p, shape=[M, N, N], strides=[N * N, N, 1], block_shape=[256, 256, 256])
    d.store([0, 0, 0], d.load([0, 0, 0]))
