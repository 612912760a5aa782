# expect: 9:5: error: txl.tma_store: reduce must be None or one of 'add', 'min', 'max', 'inc', 'dec', 'and', 'or', 'xor', got mul
# kernel: kernel
# signature: tensordesc<fp32[64, 32]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([64, 32], dtype=tl.float32), 0)
    txl.tma_store(buf, desc, [0, 0], reduce="mul")
