import triton.language as tl
import txl


@txl.jit
def multicast_without_cluster(desc, NUM_CTAS: tl.constexpr):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 8192)
    txl.tma_load(buf, desc, [0, 0], bar, multicast=3)
    txl.mbar_wait(bar, 0)


@txl.jit
def mask_outside_cluster(desc):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, desc, [0, 0], bar, multicast=4)


@txl.jit
def remote_arrive_outside_cluster():
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_arrive(bar, cta_id=2)
