# expect: 9:9: error: txl.smem_reshape: shape [3, 64] must have power-of-two dimensions
# kernel: kernel
# signature: *fp16
import triton.language as tl
import txl
@txl.jit
def kernel(x_ptr):
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    v = txl.smem_reshape(a, [3, 64])
