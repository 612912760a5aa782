# expect: 20:9: error: mbarrier protocol: one execution of this mbar_arrive makes 128 arrivals (one per thread that runs it), but the mbarrier allocated at line 12:27 completes a phase every 1 arrival
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>
# stage: gpu
# num-warpgroups: 2
import triton.language as tl
import txl
@txl.jit
def kernel(a_desc):
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    full = txl.get_buffer(txl.mbar_alloc(1), 0)
    free = txl.get_buffer(txl.mbar_alloc(1), 0)
    if txl.is_warpgroup([0]):
        txl.mbar_expect(full, 64 * 64 * 2)
        txl.tma_load(a, a_desc, [0, 0], full)
        txl.mbar_wait(free, 0)
    if txl.is_warpgroup([1]):
        txl.mbar_wait(full, 0)
        # Every thread of the warpgroup arrives: 128 arrivals, count 1.
        txl.mbar_arrive(free)
