# expect: 9:9: error: tl.make_tensor_descriptor: strides[0] is 100 elements = 200 bytes; TMA needs every stride but the last to be a multiple of 16 bytes
# kernel: kernel
# signature: *fp16:16, i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, M, N):
    # A compile-time stride TMA cannot step by.
    d = tl.make_tensor_descriptor(p, shape=[M, 4, N], strides=[100, 24, 1], block_shape=[2, 4, 16])
    d.store([0, 0, 0], d.load([0, 0, 0]))
