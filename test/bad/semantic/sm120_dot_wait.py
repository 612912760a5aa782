# expect: 9:5: error: txl.dot_wait needs sm_90a (wgmma), but the target is sm_120a (GeForce Blackwell: no wgmma or tcgen05; load the operands into registers with txl.smem_load for an mma.sync dot)
# kernel: kernel
# signature: *fp32
# target: sm_120a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    txl.dot_wait(0)
