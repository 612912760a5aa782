# expect: 16:5: error: this reads an accumulator that an asynchronous tl.dot on shared buffers may still be writing; call txl.dot_wait(0) before using it
# kernel: kernel
# signature: *fp16:16, *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(a_ptr, c_ptr):
    offs = tl.arange(0, 64)
    sA = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sA, tl.load(a_ptr + offs[:, None] * 64 + offs[None, :]))
    older = tl.dot(sA, sA.T)
    younger = tl.dot(sA, sA.T)
    # dot_wait(1) retires the older group only: one group may still run.
    txl.dot_wait(1)
    tl.store(c_ptr + offs[:, None] * 64 + offs[None, :], older)
    tl.store(c_ptr + offs[:, None] * 64 + offs[None, :], younger)
