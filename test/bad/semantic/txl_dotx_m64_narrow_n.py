# expect: 12:5: error: txl.dotx: shared buffer <[64, 64], fp16> @ shared buffer <[64, 4], fp16> does not split into tcgen05 MMAs of M = 64, N a multiple of 8 (up to 256, or whole 256-column chunks) and K = 16
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 4], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([64, 4], dtype=tl.float32), 0)
    txl.dotx(a, b, acc)
