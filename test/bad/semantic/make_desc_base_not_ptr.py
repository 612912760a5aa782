# expect: 8:9: error: tl.make_tensor_descriptor: base must be a scalar pointer to global memory, got
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(M, shape=[M, N], strides=[N, 1], block_shape=[64, 64])
