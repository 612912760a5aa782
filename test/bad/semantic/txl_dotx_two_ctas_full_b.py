# expect: 13:5: error: txl.dotx: shared buffer <[128, 64], fp16> @ shared buffer <[64, 256], fp16> does not accumulate into tensor-memory buffer <[128, 256], fp32> (with two_ctas=True, b is this CTA's half of B: [K, N / 2] for an acc of [128, N])
# kernel: kernel
# signature: *fp32
# target: sm_100a
# num-ctas: 2
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 256], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0)
    txl.dotx(a, b, acc, two_ctas=True)
