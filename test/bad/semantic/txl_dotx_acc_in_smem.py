# expect: 12:5: error: txl.dotx: acc must be a tensor-memory buffer (txl.get_buffer of txl.tmem_alloc), got a shared buffer <[128, 128], fp32>
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.smem_alloc([128, 128], dtype=tl.float32), 0)
    txl.dotx(a, b, acc)
