# expect: 11:5: error: txl.mbar_expect: expects 8192 bytes but the TMA loads signalling this barrier deliver 16384 (see line 12)
# kernel: kernel
# signature: tensordesc<fp16[64, 128]>
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([64, 128], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    # 64 * 128 fp16 are 16384 bytes, not 8192: the phase would complete early.
    txl.mbar_expect(bar, 64 * 128)
    txl.tma_load(buf, desc, [0, 0], bar)
    txl.mbar_wait(bar, 0)
