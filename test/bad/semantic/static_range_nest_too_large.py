# expect: 10:5: error: this tl.static_range loop (unrolled) expands the kernel past 262144 statements
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    acc = tl.load(p)
    # 2^36 unrolled iterations: bounded, named at the outermost loop.
    for i in tl.static_range(4096):
        for j in tl.static_range(4096):
            for k in tl.static_range(4096):
                acc += 1
    tl.store(p, acc)
