# expect: 8:19: error: expected a tensor or a number, got a tensor descriptor <[64, 64], bf16>
# kernel: kernel
# signature: tensordesc<bf16[64, 64]>, *bf16
import triton.language as tl
import txl
@txl.jit
def kernel(desc, out):
    tl.store(desc + 1, 0)
