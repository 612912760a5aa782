# Small tcgen05 cta_group::2 and cluster-launch-control kernels, and misuse
# only the compiler's passes see (test/lit/e2e/gemm-ladder-blackwell-cluster.mlir).
import triton.language as tl
import txl


@txl.jit
def mixed_cta_groups(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    wide = txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0)
    narrow = txl.get_buffer(txl.tmem_alloc([128, 128], dtype=tl.float32), 0)
    txl.dotx(a, b, wide, two_ctas=True)
    txl.dotx(a, b, narrow)


@txl.jit
def pair_mma(c_ptr):
    # No guard on the rank: the compiler restricts the issue to the even
    # CTA of the pair.
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 256], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.dotx(a, b.T, acc, useD=False, mbars=[done], two_ctas=True)
    txl.mbar_wait(done, 0)
    c = txl.tmem_load(txl.tmem_slice(acc, 64, 32))
    rows = tl.arange(0, 128)[:, None]
    cols = tl.arange(0, 32)[None, :]
    tl.store(c_ptr + rows * 32 + cols, c)


@txl.jit
def clc_loop(out_ptr):
    # One program per tile; each CTA steals programs not yet launched.
    resp = txl.get_buffer(txl.smem_alloc([4], dtype=tl.int32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    tile = tl.program_id(0)
    phase = 0
    while tile >= 0:
        tl.store(out_ptr + tile, tile + 1)
        txl.mbar_expect(bar, 16)
        txl.clc_try_cancel(resp, bar)
        txl.mbar_wait(bar, phase)
        tile = txl.clc_query(resp)
        phase ^= 1
        txl.bar_wait(1, 128)  # everyone has read the response
