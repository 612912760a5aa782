# expect: 13:5: error: txl.dotx: pass the completion mbarriers either as mbar (the 4th argument) or as mbars, not both
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 128], dtype=tl.float32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.dotx(a, b, acc, bar, mbars=[bar])
