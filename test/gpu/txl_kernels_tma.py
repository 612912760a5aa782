"""TMA kernels of test_tma.py (a module of their own so that txlc can
compile them: test files hold Python the kernel language does not have)."""

import triton.language as tl
import txl


@txl.jit
def tma_scale(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr,
              DT: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=DT), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BM * BN * DT.primitive_bitwidth // 8)
    txl.tma_load(buf, x_desc, [pid_m * BM, pid_n * BN], bar)
    txl.mbar_wait(bar, 0)
    x = txl.smem_load(buf)
    txl.smem_store(buf, x * 2 + 1)
    txl.tma_store(buf, y_desc, [pid_m * BM, pid_n * BN])
    txl.tma_store_wait(0)
