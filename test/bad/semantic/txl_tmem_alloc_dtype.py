# expect: 9:11: error: txl.tmem_alloc: dtype must be fp32 (an accumulator) or fp16/bf16 (an A operand), got int32
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    acc = txl.tmem_alloc([128, 128], dtype=tl.int32)
