# expect: 11:11: error: tl.dot on shared buffers on sm_100a is a tcgen05 MMA: acc must be a tensor-memory buffer (txl.get_buffer of txl.tmem_alloc), got a <[128, 128], fp32> (wgmma's form, accumulating in registers, needs sm_90a)
# kernel: kernel
# signature: *fp32
# target: sm_100a
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    a = txl.get_buffer(txl.smem_alloc([128, 64], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    acc = tl.dot(a, b, tl.zeros([128, 128], dtype=tl.float32))
