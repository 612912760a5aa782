# expect: 13:15: error: tl.dot with a tensor-memory accumulator is synchronous: all threads of one barrier group must call it (the CTA, one warpgroup's role, or the extra warps of is_warp roles), got warps 1; elsewhere use txl.dotx with mbarriers
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
    if txl.is_warp([1]):
        acc = tl.dot(a, b, acc)
