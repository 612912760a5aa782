# expect: 9:9: error: round() in a kernel needs a compile-time number, got tensor (use libdevice.rint on tensors)
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = round(x)
