# expect: 16:9: error: mbarrier protocol: txl.mbar_expect is issued by the first thread of a warpgroup, and no warpgroup's first thread runs this code (it runs on warp 1), so it never happens
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>
# stage: gpu
import triton.language as tl
import txl
@txl.jit
def kernel(a_desc):
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    full = txl.get_buffer(txl.mbar_alloc(1), 0)
    if txl.is_warp([0]):
        txl.mbar_wait(full, 0)
    if txl.tid(0) == 33:
        # Outside an is_warp role, expect_tx and TMA are issued by a
        # warpgroup's first thread (thread 0), which is not thread 33.
        txl.mbar_expect(full, 64 * 64 * 2)
        txl.tma_load(a, a_desc, [0, 0], full)
