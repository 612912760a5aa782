"""tl.device_print of a 1-D tensor and of a scalar (lit test input)."""
import triton
import triton.language as tl


@triton.jit
def print_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_print("x=", x)
    tl.device_print("n=", n)
    tl.device_print("offs", offs, hex=True)


@triton.jit
def print_types_kernel(p16_ptr, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    offs = rows * BLOCK_N + cols
    h = tl.load(p16_ptr + offs)
    tl.device_print("hello 100%")
    tl.device_print("h ", h)
    tl.device_print("bits ", h, hex=True)
    tl.device_print("ptr ", p16_ptr + offs)
    tl.device_print("big ", offs.to(tl.int64), hex=True)
    tl.device_print("pair ", rows, offs < n)
    for i in range(0, n):
        tl.device_print("i ", i, h.to(tl.bfloat16))
