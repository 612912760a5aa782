# expect: 18:5: error: this reads an accumulator that an asynchronous tl.dot on shared buffers may still be writing; call txl.dot_wait(0) before using it
# kernel: kernel
# signature: *fp16:16, *fp32:16, i32
import triton.language as tl
import txl
@txl.jit
def kernel(a_ptr, c_ptr, L):
    offs = tl.arange(0, 64)
    sA = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sA, tl.load(a_ptr + offs[:, None] * 64 + offs[None, :]))
    acc = tl.zeros([64, 64], dtype=tl.float32)
    j = 0
    # Only a `for` loop gets the implicit dot_wait(0) at its exit.
    while j < L:
        acc = tl.dot(sA, sA.T, acc)
        txl.dot_wait(1)
        j += 1
    tl.store(c_ptr + offs[:, None] * 64 + offs[None, :], acc)
