# expect: 9:12: error: a shared buffer <[64, 64], fp16> cannot be converted to fp32 in shared memory
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    wide = buf.to(tl.float32)
