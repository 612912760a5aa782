# expect: 13:26: error: the kernel's tensor-memory buffers need 640 columns, more than the 512 an SM has (a [128, N] fp32 stage takes N columns)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32, num_stages=2), 0)
    c = txl.tmem_load(acc)
    offs = tl.arange(0, 128)
    tl.store(p + offs, tl.sum(c, axis=1))
    two = txl.get_buffer(txl.tmem_alloc([128, 128], dtype=tl.float32), 0)
    d = txl.tmem_load(two)
    tl.store(p + offs, tl.sum(d, axis=1))
