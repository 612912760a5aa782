"""TMA kernels for the lit tests (compiled only, never run).

tma_scale: one tile in through a descriptor, doubled by the threads, out
through another. tma_stream: warpgroup 1 streams fp32 tiles through a
two-stage ring (one mbarrier per stage, dynamic stage index and parity),
copying each straight back out; warpgroup 0 does nothing. tma_ranks: unused
descriptors of rank 1 to 5 (signature parsing and metadata only).
"""
import triton.language as tl
import txl


@txl.jit
def tma_scale(a_desc, c_desc, BM: tl.constexpr, BN: tl.constexpr):
    row = tl.program_id(0) * BM
    col = tl.program_id(1) * BN
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BM * BN * 2)
    txl.tma_load(buf, a_desc, [row, col], bar)
    txl.mbar_wait(bar, 0)
    x = txl.smem_load(buf)
    txl.smem_store(buf, x * 2)
    txl.tma_store(buf, c_desc, [row, col])
    txl.tma_store_wait(0)


@txl.jit
def tma_stream(x_desc, y_desc, n_tiles, BM: tl.constexpr, BN: tl.constexpr):
    bufs = txl.smem_alloc([BM, BN], dtype=tl.float32, num_stages=2)
    bars = txl.mbar_alloc(1, num_stages=2)
    col = tl.program_id(0) * BN
    if txl.is_warpgroup([1]):
        for i in range(n_tiles):
            s = i % 2
            buf = txl.get_buffer(bufs, s)
            bar = txl.get_buffer(bars, s)
            # The store that last read this stage must be done first.
            txl.tma_store_wait(1)
            txl.mbar_expect(bar, BM * BN * 4)
            txl.tma_load(buf, x_desc, [i * BM, col], bar)
            txl.mbar_wait(bar, (i // 2) % 2)
            txl.tma_store(buf, y_desc, [i * BM, col])
        txl.tma_store_wait(0)


@txl.jit
def tma_ranks(d1, d2, d3, d4, d5, n):
    # Descriptors no TMA op uses: only their parameters and metadata exist.
    pass


# One expect for the loads of a runtime loop: the front end cannot count
# the trips, so it must not reject the byte count (it did once).
@txl.jit
def tma_loop_expect(desc, BM: tl.constexpr, BN: tl.constexpr):
    bufs = txl.smem_alloc([BM, BN], dtype=tl.float16, num_stages=2)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 2 * BM * BN * 2)
    for i in range(2):
        txl.tma_load(txl.get_buffer(bufs, i), desc, [i * BM, 0], bar)
    txl.mbar_wait(bar, 0)
