# expect: 9:9: error: txl.frag_smem_load: buf must be one shared buffer (txl.get_buffer)
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    lay = txl.BlockedLayout([1, 1], [4, 8], [4, 1], [1, 0])
    x = txl.frag_smem_load(tl.zeros([16, 16], dtype=tl.float32), [16, 16], lay)
    tl.store(p, tl.sum(tl.sum(x, 0), 0))
