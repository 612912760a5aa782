# expect: 8:5: error: txl.mbar_arrive: track_async_op must be a compile-time bool, got a runtime int1
# kernel: kernel
# signature: i32
import triton.language as tl
import txl
@txl.jit
def kernel(n):
    txl.mbar_arrive(txl.get_buffer(txl.mbar_alloc(128), 0), track_async_op=n > 0)
