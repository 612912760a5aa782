# expect: 12:5: error: txl.tma_load: the buffer shared buffer <[64, 64], fp16> is a transposed view; TMA copies rows in the descriptor's basis, so copy into (or out of) the buffer itself and transpose where it is read (.T or txl.smem_trans on the reader's side)
# kernel: kernel
# signature: tensordesc<fp16[64, 64]>
# target: sm_120a
import triton.language as tl
import txl
@txl.jit
def kernel(desc):
    buf = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, 64 * 64 * 2)
    txl.tma_load(buf.T, desc, [0, 0], bar)
    txl.mbar_wait(bar, 0)
