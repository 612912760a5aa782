# expect: 12:5: error: txl.tma_load: the buffer shared buffer <[64, 64], fp16> does not match the descriptor's block tensor descriptor <[64, 128], fp16>
# kernel: kernel
# signature: tensordesc<fp16[64, 128]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    # Half the block: TMA would write 16 KiB into an 8 KiB buffer.
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 8192)
    txl.tma_load(buf, desc, [0, 0], bar)
    txl.mbar_wait(bar, 0)
