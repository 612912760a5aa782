# expect: 8:9: error: tl.make_tensor_descriptor: block_shape must be compile-time integers (tl.constexpr), got
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, 1], block_shape=[M, 64])
    d.store([0, 0], d.load([0, 0]))
