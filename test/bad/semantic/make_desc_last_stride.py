# expect: 8:9: error: tl.make_tensor_descriptor: the last stride must be 1 (TMA reads rows of contiguous elements), got 2
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, 2], block_shape=[64, 64])
    d.store([0, 0], d.load([0, 0]))
