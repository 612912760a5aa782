# expect: 19:13: error: mbarrier protocol: each phase of the mbarrier allocated at line 12:12 expects 4096 bytes, but the TMA copies completing on it in the same phase (line 19:13, line 20:13) deliver 8192
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
    full = txl.mbar_alloc(1, num_stages=STAGES)
    empty = txl.mbar_alloc(128, num_stages=STAGES)
    if txl.is_warp([0]):
        for k in range(0, n):
            s = k % STAGES
            txl.mbar_wait(txl.get_buffer(empty, s), ((k // STAGES) & 1) ^ 1)
            # Half the box's bytes (and the stage named twice).
            txl.mbar_expect(txl.get_buffer(full, s), 64 * 64)
            txl.tma_load(txl.get_buffer(sA, s), a_desc, [k * 64, 0],
                         txl.get_buffer(full, s))
    if txl.is_warpgroup([1]):
        acc = tl.zeros([64, 64], dtype=tl.float32)
        for k in range(0, n):
            s = k % STAGES
            txl.mbar_wait(txl.get_buffer(full, s), (k // STAGES) & 1)
            acc += txl.smem_load(txl.get_buffer(sA, s)).to(tl.float32)
            txl.mbar_arrive(txl.get_buffer(empty, s))
        offs = tl.arange(0, 64)
        tl.store(out + offs[:, None] * 64 + offs[None, :], acc.to(tl.float16))
