# expect: 13:5: error: txl.dotx: mbarPreds has 1 predicate(s) for 2 mbarrier(s) in mbars
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
    bars = txl.mbar_alloc(1, num_stages=2)
    txl.dotx(a, b, acc, mbars=[txl.get_buffer(bars, 0), txl.get_buffer(bars, 1)], mbarPreds=[True])
