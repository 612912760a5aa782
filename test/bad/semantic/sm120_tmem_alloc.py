# expect: 9:11: error: txl.tmem_alloc needs tensor memory and tcgen05 (sm_100a), but the target is sm_120a (GeForce Blackwell: no tensor memory, no tcgen05)
# kernel: kernel
# signature: *fp32
# target: sm_120a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.tmem_alloc([128, 128], dtype=tl.float32)
