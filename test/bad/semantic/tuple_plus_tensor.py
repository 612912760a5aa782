# expect: 9:11: error: unsupported operand types for +: 'tuple' and 'tensor'
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x_ptr):
    t = (tl.load(x_ptr + tl.arange(0, 64)),)
    u = t + tl.load(x_ptr + tl.arange(0, 64))
    tl.store(x_ptr + tl.arange(0, 64), u[0])
