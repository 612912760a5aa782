# Early returns inside runtime ifs (Triton accepts them; see EarlyReturn.cpp).
# Kernels modelled on the shapes of Triton test_core.py control-flow tests.
import triton
import triton.language as tl


@triton.jit
def add_fn_return(x, pid):
    if pid == 0:
        return x + 1
    else:
        return x + 2


@triton.jit
def maybe_double(x, flag):
    if flag:
        return x * 2
    return x


@triton.jit
def falls_off(x, flag):
    if flag:
        return x + 1


@triton.jit
def if_return(ExitEarly, Out):
    if tl.load(ExitEarly):
        tl.store(Out, 0)
        return
    tl.store(Out, 1)


@triton.jit
def nested(Cond1, Cond2, Cond3, Val1, Val2, Val3, Out):
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


@triton.jit
def constexpr_then_runtime(Semaphore, Out, total: tl.constexpr):
    if total == 1:
        tl.store(Out, tl.program_id(0))
        return
    prev = tl.atomic_add(Semaphore, 1)
    if prev + 1 != total:
        return
    tl.store(Out, tl.program_id(0) + prev)


@triton.jit
def helpers(Out, n):
    pid = tl.program_id(0)
    o = tl.load(Out)
    if pid == 0:
        o = add_fn_return(o, pid)
    o = maybe_double(o, n > 3)
    o = falls_off(o, n > 5)
    tl.store(Out, o)
