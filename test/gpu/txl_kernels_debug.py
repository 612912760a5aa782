"""Kernels of test_debug_sync.py: one that deadlocks on purpose (a wait on
an mbarrier nobody arrives on) and one whose waits all complete."""

import triton.language as tl
import txl


@txl.jit
def never_arrives(x_ptr):
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    # No thread arrives: this wait can only time out.
    txl.mbar_wait(bar, 0)
    tl.store(x_ptr + txl.tid(0), 1.0)


@txl.jit
def arrives(x_ptr, BLOCK: tl.constexpr):
    bar = txl.get_buffer(txl.mbar_alloc(BLOCK), 0)
    txl.mbar_arrive(bar)
    txl.mbar_wait(bar, 0)
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs.to(tl.float32))
