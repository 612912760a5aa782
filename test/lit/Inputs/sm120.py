"""Kernels for sm_120a (GeForce/RTX Blackwell: TMA and mma.sync, no wgmma,
no tcgen05) in the lit tests; compiled and assembled by ptxas, never run.

tma_gemm: step 4 of the GEMM ladder with the dot in registers: both
operand tiles arrive by TMA under one expect, the threads read them into
registers (txl.smem_load) and tl.dot becomes mma.sync; the fp16 result
leaves through shared memory and a TMA store.
tma_copy_ring: a two-stage TMA copy ring (load, wait, store back out).
smem_128k: more shared memory than an sm_120a CTA may have (99 KB).
"""
import triton.language as tl
import txl


@txl.jit
def tma_gemm(a_desc, bt_desc, c_desc, K, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    ready = txl.get_buffer(txl.mbar_alloc(1), 0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    phase = 0
    for k in range(0, K, BLOCK_K):
        txl.mbar_expect(ready, (BLOCK_M + BLOCK_N) * BLOCK_K * 2)
        txl.tma_load(sA, a_desc, [off_m, k], ready)
        txl.tma_load(sB, bt_desc, [off_n, k], ready)
        txl.mbar_wait(ready, phase)
        phase ^= 1
        a = txl.smem_load(sA)
        b = txl.smem_load(sB)
        acc = tl.dot(a, tl.trans(b), acc)
    txl.smem_store(sC, acc.to(tl.float16))
    txl.tma_store(sC, c_desc, [off_m, off_n])
    txl.tma_store_wait(0)


@txl.jit
def tma_copy_ring(x_desc, y_desc, n_tiles, BM: tl.constexpr,
                  BN: tl.constexpr):
    bufs = txl.smem_alloc([BM, BN], dtype=tl.float32, num_stages=2)
    bars = txl.mbar_alloc(1, num_stages=2)
    col = tl.program_id(0) * BN
    for i in range(n_tiles):
        s = i % 2
        buf = txl.get_buffer(bufs, s)
        bar = txl.get_buffer(bars, s)
        txl.tma_store_wait(1)
        txl.mbar_expect(bar, BM * BN * 4)
        txl.tma_load(buf, x_desc, [i * BM, col], bar)
        txl.mbar_wait(bar, (i // 2) % 2)
        txl.tma_store(buf, y_desc, [i * BM, col])
    txl.tma_store_wait(0)


# 128 KiB of shared memory: fits a Hopper CTA (227 KB), not an sm_120a
# one (99 KB).
@txl.jit
def smem_128k(x_ptr):
    bufs = txl.smem_alloc([128, 128], dtype=tl.float32, num_stages=2)
    txl.smem_store(txl.get_buffer(bufs, 1), tl.zeros([128, 128], dtype=tl.float32))
