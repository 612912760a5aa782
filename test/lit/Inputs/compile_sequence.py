"""Compiles many kernels in ONE process through the real libtxl (txl.compile),
the way a test suite or an autotuner does: state that leaks from one
compile into the next (a dangling reference into freed memory once crashed
the 30th compile of the GPU suite) shows up here without a GPU. Expected
errors must be located errors, never internal ones. Prints one line per
kernel and a count."""

import os
import sys
import types

REPO = sys.argv[1]
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.join(REPO, "examples"))
sys.path.insert(0, os.path.join(REPO, "test", "gpu"))

# The kernel modules import triton.language / torch for Triton
# compatibility only; the compiler reads their source, not these modules.
torch = types.ModuleType("torch")
torch.Tensor = object
triton = types.ModuleType("triton")
triton.jit = lambda fn=None, **kw: fn if fn else (lambda f: f)
triton.language = types.ModuleType("triton.language")
triton.language.constexpr = object
sys.modules.update({"torch": torch, "triton": triton,
                    "triton.language": triton.language})

import txl  # noqa: E402
import matmul  # noqa: E402
import txl_kernels_async_copy as cp  # noqa: E402
import txl_kernels_block_ptr as bptr  # noqa: E402
import txl_kernels_register_a as ra  # noqa: E402
import txl_kernels_warp_reduce as wr  # noqa: E402

compiled = 0


def build(fn, sig, expect_error=None, **options):
    global compiled
    try:
        txl.compile(fn, sig, target="sm_90a", **options)
    except Exception as e:  # noqa: BLE001 - every failure is reported
        text = str(e)
        if not expect_error or expect_error not in text or \
                "internal error" in text:
            print(f"FAILED {fn.__name__} {sig} {options}: {text[:300]}")
            return
        print(f"located error {fn.__name__}: {expect_error}")
    compiled += 1


def matmul_sig(dt, out, aligned, tile):
    m = "i32:16" if aligned else "i32"
    bm, bn, bk = tile
    return (f"*{dt}:16,*{dt}:16,*{out}:16,{m},{m},{m},i32:16,i32:1,i32:16,"
            f"i32:1,i32:16,i32:1,{bm},{bn},{bk},8")


for repeat in range(2):
    build(cp.overhang_copy,
          "*fp16:16,*fp16:16,i32:16,i32,i32,i32:16,64,64,tl.float16,False",
          expect_error="cp.async copies at least 4 contiguous bytes")
    build(cp.overhang_copy, "*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,"
          "64,64,tl.float16,True")
    for stages in (2, 3, 4):
        build(cp.ring_copy, "*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,"
              f"64,64,{stages},tl.float16")
    for tile, warps in (((128, 128, 64), 8), ((128, 256, 64), 8),
                        ((64, 128, 64), 4)):
        for stages in (2, 3, 4, 5):
            for aligned in (False, True):
                build(matmul.matmul_kernel,
                      matmul_sig("fp16", "fp16", aligned, tile),
                      num_warps=warps, num_stages=stages)
    for dt, out in (("bf16", "fp32"), ("fp32", "fp32"), ("fp8e4nv", "fp16")):
        build(matmul.matmul_kernel, matmul_sig(dt, out, True, (128, 128, 64)),
              num_warps=8)
    build(ra.chained_dot, "*fp16:16,*fp16:16,*fp16:16,*fp32:16,fp32,64,64,64")
    build(ra.reg_a_dot, "*bf16:16,*bf16:16,*bf16:16,i32,i32:16,i32,128,64,64",
          num_warps=8)
    build(bptr.bp_matmul, matmul_sig("fp16", "fp16", True, (128, 128, 64))
          .rsplit(",", 1)[0], num_warps=8)
    build(wr.row_reduce, "*fp32:16,*fp32:16,*fp32:16,i32,128,16")
    build(wr.column_max, "*fp32:16,*fp32:16,64,64",
          expect_error="the reduced axis is split across warps")
print("compiled", compiled)
