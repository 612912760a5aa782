# expect: 9:9: error: txl.smem_reshape: cannot view shared buffer <[64, 64], fp16> (4096 elements) as [32, 64] (2048 elements)
# kernel: kernel
# signature: *fp16
import triton.language as tl
import txl
@txl.jit
def kernel(x_ptr):
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    v = txl.smem_reshape(a, [32, 64])
