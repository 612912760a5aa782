# expect: 12:11: error: tl.dot on shared buffers needs sm_90a (wgmma), but the target is sm_120a (GeForce Blackwell: no wgmma or tcgen05; load the operands into registers with txl.smem_load for an mma.sync dot)
# kernel: kernel
# signature: *fp32
# target: sm_120a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    acc = tl.dot(a, b, acc)
