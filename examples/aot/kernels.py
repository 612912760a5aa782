"""Kernels the AOT example ships precompiled (see main.c and CMakeLists.txt).

axpy: y = a * x + y over n elements, BLOCK per program -- pointers and
scalars. tma_scale: one [BM, BN] fp32 tile per program in through a TMA
descriptor, scaled by the threads, out through another -- descriptor
parameters, which the generated launcher encodes from plain tensors.
"""
import triton.language as tl
import txl


@txl.jit
def axpy(x_ptr, y_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, a * x + y, mask=mask)


@txl.jit
def tma_scale(in_desc, out_desc, scale, BM: tl.constexpr, BN: tl.constexpr):
    row = tl.program_id(0) * BM
    col = tl.program_id(1) * BN
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=tl.float32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BM * BN * 4)
    txl.tma_load(buf, in_desc, [row, col], bar)
    txl.mbar_wait(bar, 0)
    tile = txl.smem_load(buf)
    txl.smem_store(buf, tile * scale)
    txl.tma_store(buf, out_desc, [row, col])
    txl.tma_store_wait(0)
