"""Batched and N-D tl.dot compile through ptxas without a GPU: the kernels
of test/gpu/txl_kernels_dot3d.py at the shapes, types and warp counts of
Triton's test_core classes test_dot3d and test_dot_multidim, with the
instruction each must use (mma.sync for 8- and 16-bit operands and tf32,
FMAs for fp64 and ieee fp32, never wgmma for a batched dot). The numbers
are checked by test/gpu/test_dot3d.py."""

import os
import re
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TXLC = os.path.join(REPO, "build", "bin", "txlc")
KERNELS = os.path.join(REPO, "test", "gpu", "txl_kernels_dot3d.py")

# name -> (pointer type of a/b, of c/out, tl out_dtype, precision, PTX of
# the product).
TYPES = {
    "int8": ("i8", "i32", "tl.int32", "'ieee'",
             r"mma\.sync\.aligned\.m16n8k32\.row\.col\.satfinite\.s32\.s8\.s8\.s32"),
    "fp16": ("fp16", "fp32", "tl.float32", "'ieee'",
             r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32"),
    "fp16_fp16": ("fp16", "fp16", "tl.float16", "'ieee'",
                  r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f16\.f16\.f16\.f16"),
    "bf16": ("bf16", "fp32", "tl.float32", "'ieee'",
             r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32"),
    "tf32": ("fp32", "fp32", "tl.float32", "'tf32'",
             r"mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32"),
    "fp32_ieee": ("fp32", "fp32", "tl.float32", "'ieee'", r"fma\.rn\.f32"),
    "fp64": ("fp64", "fp64", "tl.float32", "'ieee'", r"fma\.rn\.f64"),
}

# (B, num_warps, M=N=K) drawn from test_dot3d's grid (B x warps x sizes),
# every type at each, BLOCK_M = BLOCK_N = 32.
SHAPES = [(1, 1, 32), (2, 4, 64), (4, 2, 32), (8, 16, 32), (8, 8, 64),
          (1, 16, 64)]


def txlc(tmp_path, kernel, signature, warps, target="sm_90a"):
    out = tmp_path / "out"
    r = subprocess.run([TXLC, KERNELS, "--kernel-name", kernel,
                        "--signature", signature, "--num-warps", str(warps),
                        "--target", target, "--out-dir", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return (out / f"{kernel}.ptx").read_text()


@pytest.mark.parametrize("name", list(TYPES))
@pytest.mark.parametrize("B,warps,size", SHAPES)
def test_dot3d_shapes_compile(tmp_path, B, warps, size, name):
    ab, out, out_tl, precision, product = TYPES[name]
    if name == "fp64" and B == 8 and size == 64:
        pytest.skip("operands exceed shared memory (test_core skips too)")
    sig = (f"*{ab}:16, *{ab}:16, *{out}:16, *{out}:16, i32, i32, i32, i32, "
           + ", ".join(["i32"] * 9)
           + f", {B}, 32, 32, {size}, {out_tl}, {precision}, False")
    ptx = txlc(tmp_path, "dot3d_kernel", sig, warps)
    assert re.search(product, ptx), name
    assert "wgmma" not in ptx


def test_dot3d_mma_count(tmp_path):
    # [2, 32, 32] x [2, 32, 32] fp16 on 4 warps: warps [2, 1, 2] over
    # (batch, M, N), each warp 2 x 2 tiles of 16 x 8, two k16 steps: 8
    # mma.sync per thread, no loop around them.
    sig = ("*fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, i32, i32, i32, "
           + ", ".join(["i32"] * 9) + ", 2, 32, 32, 32, tl.float32, 'ieee', True")
    ptx = txlc(tmp_path, "dot3d_kernel", sig, 4)
    assert len(re.findall(r"mma\.sync\.aligned\.m16n8k16", ptx)) == 8


@pytest.mark.parametrize("target", ["sm_90a", "sm_80"])
def test_dot3d_loop_compiles(tmp_path, target):
    sig = "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, i32, 2, 32, 64, 32, tl.float32"
    ptx = txlc(tmp_path, "dot3d_loop_kernel", sig, 4, target)
    assert re.search(TYPES["fp16"][4], ptx)


@pytest.mark.parametrize("rank", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("trans_b", [False, True])
def test_dot_multidim_compiles(tmp_path, rank, trans_a, trans_b):
    sig = f"*bf16:16, *bf16:16, *fp32:16, {rank}, {trans_a}, {trans_b}"
    ptx = txlc(tmp_path, "dot_multidim_kernel", sig, 4)
    assert re.search(TYPES["bf16"][4], ptx)
