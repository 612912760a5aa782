# expect: 13:12: error: mbarrier protocol: this mbarrier completes a phase every 2 arrivals, but each round of the code that signals it (line 20:13, line 21:13) makes 1
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>, *fp16, i32
# stage: gpu
# num-warpgroups: 2
import triton.language as tl
import txl
@txl.jit
def kernel(a_desc, out, n):
    STAGES: tl.constexpr = 2
    sA = txl.smem_alloc([64, 64], dtype=tl.float16, num_stages=STAGES)
    # Counts 2 arrivals a phase, but only the expect arrives (once).
    full = txl.mbar_alloc(2, num_stages=STAGES)
    empty = txl.mbar_alloc(128, num_stages=STAGES)
    if txl.is_warp([0]):
        for k in range(0, n):
            s = k % STAGES
            txl.mbar_wait(txl.get_buffer(empty, s), ((k // STAGES) & 1) ^ 1)
            bar = txl.get_buffer(full, s)
            txl.mbar_expect(bar, 64 * 64 * 2)
            txl.tma_load(txl.get_buffer(sA, s), a_desc, [k * 64, 0], bar)
    if txl.is_warpgroup([1]):
        acc = tl.zeros([64, 64], dtype=tl.float32)
        for k in range(0, n):
            s = k % STAGES
            txl.mbar_wait(txl.get_buffer(full, s), (k // STAGES) & 1)
            acc += txl.smem_load(txl.get_buffer(sA, s)).to(tl.float32)
            txl.mbar_arrive(txl.get_buffer(empty, s))
        offs = tl.arange(0, 64)
        tl.store(out + offs[:, None] * 64 + offs[None, :], acc.to(tl.float16))
