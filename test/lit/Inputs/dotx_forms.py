# Kernels for test/lit/e2e/dotx-forms.mlir: txl.dotx with each operand type
# tcgen05 takes (kind::f16 with fp16 and bf16, kind::tf32, kind::f8f6f4
# with fp8e4nv), with A in tensor memory, with an MN-major B, with a
# predicate, and tensor memory read by 8 warps.
import triton.language as tl
import txl


@txl.jit
def dotx_dtype(a_ptr, b_ptr, c_ptr, BK: tl.constexpr):
    DT: tl.constexpr = a_ptr.dtype.element_ty
    rows = tl.arange(0, 128)
    cols = tl.arange(0, 64)
    ks = tl.arange(0, BK)
    sA = txl.get_buffer(txl.smem_alloc([128, BK], dtype=DT), 0)
    sB = txl.get_buffer(txl.smem_alloc([64, BK], dtype=DT), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 64], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.smem_store(sA, tl.load(a_ptr + rows[:, None] * BK + ks[None, :]))
    txl.smem_store(sB, tl.load(b_ptr + cols[:, None] * BK + ks[None, :]))
    txl.dotx(sA, sB.T, acc, useD=False, mbars=done)
    txl.mbar_wait(done, 0)
    c = txl.tmem_load(acc)
    tl.store(c_ptr + rows[:, None] * 64 + cols[None, :], c)


@txl.jit
def dotx_tmem_a(a_ptr, b_ptr, c_ptr, flag):
    rows = tl.arange(0, 128)
    cols = tl.arange(0, 64)
    ks = tl.arange(0, 32)
    tA = txl.get_buffer(txl.tmem_alloc([128, 32], dtype=tl.float16), 0)
    # B row-major [K, N]: N contiguous (MN-major), fp16.
    sB = txl.get_buffer(txl.smem_alloc([32, 64], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, 64], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tmem_store(tA, tl.load(a_ptr + rows[:, None] * 32 + ks[None, :]))
    txl.smem_store(sB, tl.load(b_ptr + ks[:, None] * 64 + cols[None, :]))
    txl.tmem_store(acc, tl.zeros([128, 64], dtype=tl.float32))
    txl.dotx(tA, sB, acc, pred=flag > 0, mbars=[done])
    txl.mbar_wait(done, 0)
    c = txl.tmem_load(acc)
    tl.store(c_ptr + rows[:, None] * 64 + cols[None, :], c)
