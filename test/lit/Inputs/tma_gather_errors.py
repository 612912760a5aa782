"""tma_gather misuse that needs a target (lit e2e/tma-gather): rows of 64
bytes on sm_90 (one TMA copy per row needs 128-byte aligned rows), and
any gather on sm_80."""
import triton.language as tl
import txl


@txl.jit
def narrow(x_desc, idx_ptr):
    buf = txl.get_buffer(txl.smem_alloc([32, 32], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    rows = tl.load(idx_ptr + tl.arange(0, 32))
    txl.mbar_expect(bar, 32 * 32 * 2)
    txl.tma_gather(buf, x_desc, bar, rows, 0)
    txl.mbar_wait(bar, 0)
