"""Kernels of test_role_scalars.py: scalar stores and atomics inside
warpgroup and warp roles. Each is one thread's work (thread 0 outside
roles); in a role that thread 0 does not run it is lane 0 of the role's
first warp (scalarPerformerThread, ExtraWarps.h), else it would never
happen."""

import triton.language as tl
import txl


@txl.jit
def role_scalars(out, counter):
    """num_warps=4, num_warpgroups=3: out[0..3] and counter[0..1] (zeroed)
    get 10, 11, 100 + the old counter seen by warpgroup 1's atomic, the
    old counter[1] seen by warpgroup 2's compare-and-swap; counter[0]
    ends at 1 + 5 (each atomic exactly once), counter[1] at 7."""
    if txl.is_warpgroup([0]):
        tl.store(out, 10)
    if txl.is_warpgroup([1]):
        tl.store(out + 1, 11)
        old = tl.atomic_add(counter, 1)
        tl.store(out + 2, old + 100)
    if txl.is_warpgroup([2]):
        tl.atomic_add(counter, 5)
        tl.store(out + 3, tl.atomic_cas(counter + 1, 0, 7))


@txl.jit
def warp_role_scalars(out, counter):
    """num_warps=4: warp 2 alone stores 12 to out[0] and adds 3 to
    counter[0]; the other warps (the else branch, from warp 0) add 1."""
    if txl.is_warp(2):
        tl.store(out, 12)
        tl.atomic_add(counter, 3)
    else:
        tl.atomic_add(counter, 1)
