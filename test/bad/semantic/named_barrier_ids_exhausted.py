# expect: 15:9: error: the kernel's named barriers leave no 2 consecutive ids in 1..15 for the compiler's per-warpgroup barriers
# stage: gpu
# kernel: kernel
# signature: *fp32
# num-warpgroups: 2
import triton
import triton.language as tl
import txl


@txl.jit
def kernel(out):
    # Every second id: two warpgroups need two consecutive ones.
    if txl.is_warpgroup([0]):
        txl.bar_wait(1, 128)
        txl.bar_wait(3, 128)
        txl.bar_wait(5, 128)
        txl.bar_wait(7, 128)
        txl.bar_wait(9, 128)
        txl.bar_wait(11, 128)
        txl.bar_wait(13, 128)
        txl.bar_wait(15, 128)
    x = tl.arange(0, 128).to(tl.float32)
    tl.store(out + tl.arange(0, 128), tl.cumsum(x, 0))
