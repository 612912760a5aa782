import triton
import triton.language as tl
import txl


@txl.jit
def user_ids_15_14(out):
    # Two warpgroups; the kernel's own barriers take ids 15 and 14, which
    # are the compiler's defaults for warpgroups 0 and 1.
    if txl.is_warpgroup([0]):
        txl.bar_wait(15, 128)
    txl.bar_wait(14, 256)
    x = tl.arange(0, 128).to(tl.float32)
    tl.store(out + txl.warpgroup_id(), tl.sum(x, 0))


@txl.jit
def user_ids_8_9(out):
    # Ids clear of the defaults: the compiler keeps 15 - warpgroup.
    txl.bar_wait(8, 256)
    txl.bar_arrive(9, 256)
    x = tl.arange(0, 128).to(tl.float32)
    tl.store(out + txl.warpgroup_id(), tl.sum(x, 0))
