# expect: 10:9: error: txl.tmem_load: layout '16x32bx2' is not a tcgen05.ld/st message shape (32x32b, 16x64b, 16x128b or 16x256b)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    buf = txl.get_buffer(txl.tmem_alloc([128, 128], dtype=tl.float32), 0)
    c = txl.tmem_load(buf, layout="16x32bx2")
