# expect: 13:5: error: txl.dotx: with two_ctas=True the MMA is M = 256 x N with N a multiple of 32 (each CTA holds N / 2 columns of B), got N = 16
# kernel: kernel
# signature: *fp32
# target: sm_100a
# num-ctas: 2
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 8], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 16], dtype=tl.float32), 0)
    txl.dotx(a, b, acc, two_ctas=True)
