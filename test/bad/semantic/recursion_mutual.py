# expect: 8:12: error: recursive call to 'ping'
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def pong(x):
    return ping(x + 1)
@triton.jit
def ping(x):
    return pong(x * 2)
@triton.jit
def kernel(p):
    tl.store(p, ping(tl.load(p)))
