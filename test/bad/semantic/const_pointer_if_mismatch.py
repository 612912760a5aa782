# expect: 8:5: error: Mismatched type for out between then block (const_pointer<fp32>) and else block (pointer<fp32>)
# kernel: kernel
# signature: *fp32, *fp32, i1
import triton
import triton.language as tl
@triton.jit
def kernel(src: tl.const, dst, flag):
    if flag:
        out = src
    else:
        out = dst
    tl.store(out, 1.0)
