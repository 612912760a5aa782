# expect: 10:9: error: tl.make_tensor_descriptor: strides[1] is 12 elements = 24 bytes; TMA needs every stride but the last to be a multiple of 16 bytes
# kernel: k
# signature: *fp16:16, i32, i32, i32
import triton.language as tl
import txl


@txl.jit
def k(x, a, b, c):
    d = tl.make_tensor_descriptor(x, [a, b, c], [b * 12, 12, 1], [2, 8, 64])
    t = d.load([0, 0, 0])
    d.store([0, 0, 0], t)
