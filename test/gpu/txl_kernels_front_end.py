"""Kernels of test_front_end.py: Triton front-end behaviours from Triton's
test_core.py (issue 13): early returns in runtime ifs, runtime conditional
expressions, tl.where on pointers, map_elementwise with a data-dependent
`if`, tl.const pointers, a load after a store. A module of its own so txlc
compiles it."""

import triton.language as tl
import txl


@txl.jit
def add_or_add2(x, pid):
    if pid == 0:
        return x + 1
    else:
        return x + 2


@txl.jit
def exit_early(ExitEarly, Out):
    if tl.load(ExitEarly):
        tl.store(Out, 0)
        return
    tl.store(Out, 1)


@txl.jit
def nested_return(Cond1, Cond2, Cond3, Val1, Val2, Val3, Out):
    val = 0
    if tl.load(Cond1):
        if tl.load(Cond2):
            val = tl.load(Val1)
        else:
            return
    else:
        if tl.load(Cond3):
            val = tl.load(Val2)
        else:
            val = tl.load(Val3)
    tl.store(Out, val)


@txl.jit
def semaphore_return(Semaphore, Out, total: tl.constexpr):
    if total == 1:
        tl.store(Out, tl.program_id(0))
        return
    prev = tl.atomic_add(Semaphore, 1)
    if prev + 1 != total:
        return
    tl.store(Out, tl.program_id(0) + prev)


@txl.jit
def helper_return(Out):
    """Out[pid] = 1 + (1 if pid == 0 else 2)."""
    pid = tl.program_id(0)
    tl.store(Out + pid, add_or_add2(tl.load(Out + pid), pid))


@txl.jit
def ternary_store(XTrue, XFalse, Ret):
    """Each side stores: only the chosen one may run."""
    pid = tl.program_id(0)
    tl.store(Ret + pid, tl.load(XTrue)) if pid % 2 == 0 else tl.store(
        Ret + pid, tl.load(XFalse))


@txl.jit
def where_pointers(Cond, APtrs, BPtrs, A, B, Out, n, BLOCK: tl.constexpr):
    """Out = *where(cond, a_ptr, b_ptr) * 10 + where(cond[0], A, B)[offs],
    the pointers read as int64 addresses (as Triton's test_where does)."""
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    ptr = tl.where(tl.load(Cond), A, B)  # a scalar choice of pointers
    a = tl.load(APtrs + offs, mask=mask).to(tl.pi32_t)
    b = tl.load(BPtrs + offs, mask=mask).to(tl.pi32_t)
    p = tl.where(tl.load(Cond + offs, mask=mask) != 0, a, b)
    tl.store(Out + offs,
             tl.load(p, mask=mask) * 10 + tl.load(ptr + offs, mask=mask),
             mask=mask)


@txl.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@txl.jit
def map_compare(X, Y, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    tl.store(Z + tl.arange(0, BLOCK), tl.map_elementwise(compare, x, y))


@txl.jit
def copy_from_const(in_ptr: tl.const, out, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out + offsets, tl.load(in_ptr + offsets, mask=mask), mask=mask)


@txl.jit
def scale_block(ptr, n, factor):
    offsets = tl.program_id(0) * 128 + tl.arange(0, 128)
    mask = offsets < n
    vec = tl.load(ptr + offsets, mask=mask)
    tl.store(ptr + offsets, vec * factor, mask=mask)


@txl.jit
def scale_twice(ptr, n, f1, f2):
    scale_block(ptr, n, f1)
    scale_block(ptr, n, f2)


@txl.jit
def for_iv(Out, lo, hi, iv: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)
    for i in range(lo, hi, iv):
        acc += i
    tl.store(Out, acc)
