# expect: 11:5: error: txl.tma_load: the buffer shared buffer <[64, 128], fp32> does not match the descriptor's block tensor descriptor <[64, 128], fp16>
# kernel: kernel
# signature: tensordesc<fp16[64, 128]>, 64, 128
import triton.language as tl
import txl
@txl.jit
def kernel(desc, BM: tl.constexpr, BN: tl.constexpr):
    # Same shape, other element type: TMA does not convert.
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=tl.float32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.tma_load(buf, desc, [0, 0], bar)
