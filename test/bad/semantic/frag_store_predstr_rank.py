# expect: 10:5: error: txl.frag_smem_store: predStr="slice:2" needs a value of rank 2 with a dimension 2 to drop, got <[64, 64], fp32>
# kernel: kernel
# signature: *fp32
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    buf = txl.get_buffer(txl.smem_alloc([64], dtype=tl.float32), 0)
    lay: tl.constexpr = txl.SliceLayout(dim=1, parent=txl.BlockedLayout([1, 1], [4, 8], [4, 1], [1, 0]))
    txl.frag_smem_store(buf, tl.zeros([64, 64], dtype=tl.float32), lay, predStr="slice:2")
