# A load after a store to the same addresses (Triton test_core.py's
# test_call: two helper calls each load, scale and store one block).
import triton
import triton.language as tl


@triton.jit
def scale_block(ptr, n, factor):
    offsets = tl.program_id(0) * 128 + tl.arange(0, 128)
    mask = offsets < n
    vec = tl.load(ptr + offsets, mask=mask)
    tl.store(ptr + offsets, vec * factor, mask=mask)


@triton.jit
def scale_twice(ptr, n, f1, f2):
    scale_block(ptr, n, f1)
    scale_block(ptr, n, f2)
