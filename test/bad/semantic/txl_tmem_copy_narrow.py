# expect: 11:5: error: txl.tmem_copy: rows of shared buffer <[128, 8], fp16> are not whole 32-byte copies (tcgen05.cp 128x256b)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    s = txl.get_buffer(txl.smem_alloc([128, 8], dtype=tl.float16), 0)
    t = txl.get_buffer(txl.tmem_alloc([128, 8], dtype=tl.float16), 0)
    txl.tmem_copy(t, s)
