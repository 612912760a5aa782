# expect: 10:9: error: tl.make_tensor_descriptor: descriptors of rank 3 made in a kernel are not supported yet (rank 1 and 2 are; pass a host txl.TensorDescriptor instead)
# kernel: k
# signature: *fp16:16, i32, i32, i32
import triton.language as tl
import txl


@txl.jit
def k(x, a, b, c):
    d = tl.make_tensor_descriptor(x, [a, b, c], [b * c, c, 1], [2, 8, 64])
    t = d.load([0, 0, 0])
    d.store([0, 0, 0], t)
