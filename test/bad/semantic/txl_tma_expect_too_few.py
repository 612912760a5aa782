# expect: 12:5: error: txl.mbar_expect: expects 32768 bytes but the TMA loads signalling this barrier before the wait at line 15 deliver 16384 bytes
# kernel: kernel
# signature: tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>
import triton.language as tl
import txl
@txl.jit
def kernel(a_desc, b_desc):
    a = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    # Armed for both tiles, but the second load was forgotten: the wait hangs.
    txl.mbar_expect(bar, 2 * 64 * 128 * 2)
    txl.tma_load(a, a_desc, [0, 0], bar)
    x = tl.program_id(0)
    txl.mbar_wait(bar, 0)
