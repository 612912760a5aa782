"""Shared memory (lit e2e/smem-small-and-rega): a tile read from shared
memory as wgmma's register A operand is loaded in the A-fragment layout
(no scratch conversion), and small unswizzled buffers take 128-byte
stages instead of 1024-byte ones."""
import triton.language as tl
import txl


@txl.jit
def rega_from_smem(q_ptr, k_ptr, o_ptr, n, sums_ptr):
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    sk = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    s0 = txl.get_buffer(txl.smem_alloc([64], dtype=tl.float32), 0)
    s1 = txl.get_buffer(txl.smem_alloc([64], dtype=tl.float32), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + r[:, None] * 64 + r[None, :]))
    q = txl.smem_load(sq)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for i in range(n):
        acc = tl.dot(q, sk.T, acc)
        txl.dot_wait(0)
    txl.smem_store(s0, tl.sum(acc, 1))
    txl.smem_store(s1, tl.max(acc, 1))
    tl.store(sums_ptr + r, txl.smem_load(s0) + txl.smem_load(s1))
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], acc)
