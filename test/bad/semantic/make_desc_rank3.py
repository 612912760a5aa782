# expect: 8:9: error: tl.make_tensor_descriptor: only 1-D and 2-D tensor descriptors are supported, got rank 3
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N, N], strides=[N, N, 1], block_shape=[2, 64, 64])
