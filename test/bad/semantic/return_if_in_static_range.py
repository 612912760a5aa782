# expect: 9:9: error: a runtime 'if' holding a 'return' cannot be inside a loop or a 'with' block (Triton's rule for `return` in `for` and `while`); keep the return outside it
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    for i in tl.static_range(3):
        if n > i:
            return
    tl.store(p, 1.0)
