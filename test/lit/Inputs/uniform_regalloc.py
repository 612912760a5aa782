# setmaxnreg under warpgroup-uniform conditions other than is_warpgroup
# (the TXL project's FlashAttention kernels branch on warpgroup_id()).
import triton.language as tl
import txl


@txl.jit
def by_warpgroup_id(p):
    wgid = txl.warpgroup_id()
    if wgid == 0:
        txl.reg_dealloc(40)
        tl.store(p, 1.0)
    else:
        txl.reg_alloc(232)
        tl.store(p + 1, 2.0)


@txl.jit
def by_thread_division(p, n):
    role = txl.tid(0) // 128
    if (role == 1) & (n > 0):
        txl.reg_alloc(232)
    for i in range(0, n):
        if (txl.warpgroup_id() + i) % 2 == 0:
            tl.store(p + i, 1.0)
    if tl.program_id(0) == 0:
        if txl.warpgroup_id() != 1:
            txl.reg_dealloc(24)


@txl.jit
def by_warp_id(p):
    if txl.warp_id() == 0:  # 4 warps per warpgroup: not uniform
        txl.reg_alloc(232)


@txl.jit
def divergent_inside_role(p):
    if txl.is_warpgroup([0]):
        if txl.tid(0) < 64:
            txl.reg_alloc(232)
