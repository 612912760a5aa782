"""Kernels for test_buffer_choice.py: a shared buffer (and its mbarrier)
chosen at run time, `buf = a if cond else b` or assigned in both branches
of an if, as the TXL project's kernels choose per warpgroup."""
import triton.language as tl
import txl


@txl.jit
def choose_by_program(x_desc, y_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # Even programs copy their block into A, odd ones into B, through one
    # chosen handle; each then reads the buffer it expects by name.
    pid = tl.program_id(0)
    a = txl.smem_alloc([BM, BN], dtype=tl.float16)
    b = txl.smem_alloc([BM, BN], dtype=tl.float16)
    bar_a = txl.mbar_alloc(1)
    bar_b = txl.mbar_alloc(1)
    even = pid % 2 == 0
    if even:
        buf = a
        bar = bar_a
    else:
        buf = b
        bar = bar_b
    tile = txl.get_buffer(buf, 0)
    ready = txl.get_buffer(bar, 0)
    txl.mbar_expect(ready, BM * BN * 2)
    txl.tma_load(tile, x_desc, [pid * BM, 0], ready)
    txl.mbar_wait(ready, 0)
    if even:
        x = txl.smem_load(txl.get_buffer(a, 0))
    else:
        x = txl.smem_load(txl.get_buffer(b, 0))
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    tl.store(y_ptr + rows[:, None] * BN + cols[None, :], x,
             mask=rows[:, None] < M)


@txl.jit
def choose_by_warpgroup(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # Two warpgroups, each with its own buffer picked by a conditional
    # expression on the warpgroup id; each scales its half by wg + 1.
    a = txl.smem_alloc([BM, BN], dtype=tl.float32)
    b = txl.smem_alloc([BM, BN], dtype=tl.float32)
    wg = txl.warpgroup_id()
    mine = txl.get_buffer(a if wg == 0 else b, 0)
    rows = wg * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    offs = rows[:, None] * BN + cols[None, :]
    x = tl.load(x_ptr + offs)
    txl.smem_store(mine, x * (wg + 1).to(tl.float32))
    y = txl.smem_load(mine)
    tl.store(y_ptr + offs, y)
