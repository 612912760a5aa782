"""tl.dot_scaled compiles for sm_90a through ptxas (no GPU): a sample of
Triton's test_core.py::test_scaled_dot parametrizations (M, N, K, col_a,
col_b, rhs_scale, mxfp_type, normal_type) under the drop-in switch, with
the PTX properties that test asserts on CUDA: a k16 mma/wgmma on
bf16/fp16 operands with an fp32 accumulator, and 128-bit global loads and
stores where the tile is large enough. Numerics: test/gpu/test_dot_scaled.py."""

import itertools
import json
import random

import pytest

from test_triton_compat import REAL_LIB, check, needs_real_lib, run_python

ALL = [(M, N, K, col_a, col_b, rhs_scale, mxfp, normal)
       for M, N, K in itertools.product([32, 64, 128], [32, 64, 128], [64, 128])
       for col_a, col_b in itertools.product([True, False], repeat=2)
       for rhs_scale in [False, True]
       for mxfp in ["e2m1", "e4m3", "e5m2"]
       for normal in ["e4m3", "e5m2", "bf16", "fp16"]]
# Every format pair and scale side once, each at a shape and majors drawn
# from test_core's (the full set is 1728 compiles), plus the largest tile.
_rng = random.Random(0)
SAMPLE = [(*_rng.choice(ALL)[:5], rs, mx, nt)
          for rs in (False, True) for mx in ("e2m1", "e4m3", "e5m2")
          for nt in ("e4m3", "e5m2", "bf16", "fp16")]
SAMPLE += [(128, 128, 128, True, True, True, "e2m1", "bf16"),
           (128, 128, 128, False, False, False, "e4m3", "fp16")]

TORCH = {"e2m1": "torch.uint8", "e4m3": "torch.uint8", "e5m2": "torch.uint8",
         "bf16": "torch.bfloat16", "fp16": "torch.float16"}


def case_code(M, N, K, col_a, col_b, rhs_scale, mxfp, normal):
    type_a = normal if rhs_scale else mxfp
    type_b = mxfp if rhs_scale else normal
    ka = K // (2 if type_a == "e2m1" else 1)
    kb = K // (2 if type_b == "e2m1" else 1)
    sa = (ka, 1) if not col_a else (1, M)
    sb = (N, 1) if not col_b else (1, kb)
    comp = "torch.float16" if normal == "fp16" else "torch.bfloat16"
    scale_a = "None" if rhs_scale else "T(3 << 20, 'torch.uint8')"
    scale_b = "T(3 << 20, 'torch.uint8')" if rhs_scale else "None"
    return f"""
        w = k.dot_scale_kernel.warmup(
            T(1 << 20, {TORCH[type_a]!r}), {sa[0]}, {sa[1]}, {scale_a},
            T(2 << 20, {TORCH[type_b]!r}), {sb[0]}, {sb[1]}, {scale_b},
            T(4 << 20, {comp!r}), {M}, {N}, {K}, {type_a!r}, {type_b!r},
            num_warps=4, grid=(1,))
        ptx = w.asm["ptx"]
        out.append(dict(
            mma=bool(re.search(r"(mma|wgmma.mma_async).sync.aligned.m\\d+n\\d+k16(?:.row.col)?.f32.(f|bf)16.(f|bf)16", ptx)),
            ld4="ld.global.v4" in ptx, st4="st.global.v4" in ptx,
            spills=w.n_spills))
"""


@needs_real_lib
def test_triton_scaled_dot_sample_compiles(tmp_path):
    code = """
        import json, re
        class T:
            def __init__(self, p, dtype):
                self.p, self.dtype = p, dtype
            def data_ptr(self):
                return self.p
        import triton_style_dot_scaled as k
        out = []
    """ + "".join(case_code(*c) for c in SAMPLE) + """
        print(json.dumps(out))
    """
    got = json.loads(check(run_python(code, tmp_path, TXL_AS_TRITON="1",
                                      TXL_LIBRARY=REAL_LIB)).splitlines()[-1])
    assert len(got) == len(SAMPLE)
    for case, r in zip(SAMPLE, got):
        M, N, K = case[:3]
        assert r["mma"], case
        # test_core's vectorization asserts (num_warps = 4).
        if max(M, N) * K // 128 >= 4:
            assert r["ld4"], case
        if M * N // 128 >= 4:
            assert r["st4"], case
