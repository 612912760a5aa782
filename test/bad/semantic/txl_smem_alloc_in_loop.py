# expect: 9:13: error: txl.smem_alloc must be called at the kernel's top level
# kernel: kernel
# signature: *fp32, *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p, q):
    for i in range(0, tl.load(p).to(tl.int32)):
        b = txl.smem_alloc([64, 64], dtype=tl.float16)
