"""Two warpgroups with different roles hand a tile over through shared memory.

Warpgroup 0 (producer) gives up registers, loads a block, scales it into a
shared buffer and arrives on an mbarrier that counts its 128 threads.
Warpgroup 1 (consumer) takes the registers, waits for the barrier's first
phase, reads the buffer back and stores it with its warpgroup id added.
Launch with num_warps=4, num_warpgroups=2: y = 2 * x + 1.
"""
import triton.language as tl
import txl


@txl.jit
def warpgroup_handoff(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    base = tl.program_id(0) * BLOCK
    offs = base + tl.arange(0, BLOCK)
    buf = txl.get_buffer(txl.smem_alloc([BLOCK], dtype=tl.float32), 0)
    full = txl.get_buffer(txl.mbar_alloc(128), 0)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(40)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        txl.smem_store(buf, x * 2.0)
        txl.mbar_arrive(full)
    else:
        txl.reg_alloc(232)
        txl.mbar_wait(full, 0)
        y = txl.smem_load(buf)
        tl.store(y_ptr + offs, y + txl.warpgroup_id().to(tl.float32),
                 mask=offs < n)
