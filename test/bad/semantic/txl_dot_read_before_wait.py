# expect: 14:9: error: this reads an accumulator that an asynchronous tl.dot on shared buffers may still be writing; call txl.dot_wait(0) before using it
# kernel: kernel
# signature: *fp16:16, *fp16:16
import triton.language as tl
import txl
@txl.jit
def kernel(a_ptr, c_ptr):
    offs = tl.arange(0, 64)
    sA = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    x = tl.load(a_ptr + offs[:, None] * 64 + offs[None, :])
    txl.smem_store(sA, x)
    acc = tl.dot(sA, sA.T)
    # The wgmma group is still running: no txl.dot_wait before the read.
    y = acc.to(tl.float16)
    tl.store(c_ptr + offs[:, None] * 64 + offs[None, :], y)
