# A module of jit helpers imported by kernels in another file.
import os

import triton
import triton.language as tl

from .consts import OFFSET

SCALE = 3
TUNED = int(os.environ.get("TUNED", "1"))  # host code: unknown


@triton.jit
def scale(x):
    return x * SCALE + OFFSET


@triton.jit
def uses_tuned(x):
    return x * TUNED


@triton.jit
def broken(x):
    return x + no_such_name
