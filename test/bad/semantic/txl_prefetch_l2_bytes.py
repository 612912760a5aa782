# expect: 9:5: error: txl.prefetch_l2: the byte count must be a positive multiple of 16 below 2^31 (cp.async.bulk moves 16-byte units), got 200
# kernel: kernel
# signature: *bf16:16
import triton.language as tl
import txl
@txl.jit
def kernel(p):
    # 100 bf16 elements: 200 bytes, not whole 16-byte units.
    txl.prefetch_l2(p, 100 * 2, pred=txl.tid(0) == 0)
