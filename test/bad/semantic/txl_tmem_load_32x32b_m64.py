# expect: 10:9: error: txl.tmem_load: layout '32x32b' cannot move tensor-memory buffer <[64, 128], fp32>: 32x32b moves 32 TMEM lanes per warp, but a 64-row buffer has 16 lanes in each warp's quarter (use 16x64b, 16x128b or 16x256b)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    buf = txl.get_buffer(txl.tmem_alloc([64, 128], dtype=tl.float32), 0)
    c = txl.tmem_load(buf, layout="32x32b")
