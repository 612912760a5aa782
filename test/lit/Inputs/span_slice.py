"""smem_slice views inside a swizzle span (lit e2e/span-slice): K slices of
a [128, 64] fp16 tile with 128-byte rows feed wgmma; a view read by
anything but tl.dot is a located error."""
import triton.language as tl
import txl


@txl.jit
def k_slices(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 128)
    k = tl.arange(0, 64)
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    txl.smem_store(a, tl.load(a_ptr + r[:, None] * 64 + k[None, :]))
    txl.smem_store(b, tl.load(b_ptr + r[:, None] * 64 + k[None, :]))
    acc = tl.zeros([128, 128], dtype=tl.float32)
    for kk in tl.static_range(0, 64, 32):
        aa = txl.smem_slice(a, start=kk, length=32, dim=1)
        bb = txl.smem_slice(b, start=kk, length=32, dim=1)
        acc = tl.dot(aa, bb.T, acc)
        txl.dot_wait(0)
    tl.store(c_ptr + r[:, None] * 128 + r[None, :], acc)


@txl.jit
def load_of_span_slice(a_ptr, c_ptr):
    r = tl.arange(0, 128)
    k = tl.arange(0, 64)
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    txl.smem_store(a, tl.load(a_ptr + r[:, None] * 64 + k[None, :]))
    b = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    acc = tl.dot(a, b.T)
    txl.dot_wait(0)
    half = txl.smem_slice(a, start=32, length=32, dim=1)
    v = txl.smem_load(half)
    tl.store(c_ptr + r[:, None] * 32 + tl.arange(0, 32)[None, :], v)
    tl.store(c_ptr + r[:, None] * 128 + r[None, :], acc)
