# expect: 10:5: error: txl.tma_load: desc must be a tensor descriptor, got a pointer<fp16>
# kernel: kernel
# signature: *fp16:16
import triton.language as tl
import txl
@txl.jit
def kernel(a_ptr):
    buf = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, a_ptr, [0, 0], bar)
