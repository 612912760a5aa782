# expect: 8:5: error: txl.tcgen05_fence_after needs tensor memory and tcgen05 (sm_100a), but the target is sm_120a (GeForce Blackwell: no tensor memory, no tcgen05)
# kernel: kernel
# signature: *fp32
# target: sm_120a
import txl
@txl.jit
def kernel(p):
    txl.tcgen05_fence_after()
