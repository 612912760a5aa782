"""Triton's fused-attention tutorial kernel (`_attn_fwd` of the unchanged
test/compat/txl/02-flash-attention.py) compiled by txl, one launch config
at a time, against an fp32 PyTorch reference: non-causal and causal, the
configs bench/_attention_tutorial.py autotunes over (2-4 stages, 4 and 8
warps, 64- and 128-row blocks), head dims 64, 128 and 256 (whose 3-stage
K/V rings leave 2 KB of the 227 KB), sequence lengths of one block up to
many (the desc.load loops run 1 to 32 iterations, fewer than, as many as
and more than their TMA stages). Outputs are poisoned before each
launch."""

import os
import sys

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
sys.path.insert(0, os.path.join(REPO, "bench"))


@pytest.fixture(scope="module")
def kernel():
    import txl
    import _attention_tutorial
    return txl.jit(_attention_tutorial._load()._attn_fwd.fn.fn)


def reference(q, k, v, scale, causal):
    s = (q.float() @ k.float().transpose(-1, -2)) * scale
    if causal:
        n = q.shape[-2]
        keep = torch.ones(n, n, dtype=torch.bool, device=q.device).tril()
        s = s.masked_fill(~keep, float("-inf"))
    lse2 = torch.logsumexp(s, dim=-1) / torch.log(torch.tensor(2.0))
    return torch.softmax(s, dim=-1) @ v.float(), lse2


def run(kernel, q, k, v, causal, bm, bn, stages, warps):
    from triton.tools.tensor_descriptor import TensorDescriptor
    Z, H, N, D = q.shape
    o = torch.full_like(q, float("nan"))
    m = torch.full((Z, H, N), float("nan"), device=q.device,
                   dtype=torch.float32)
    descs = [TensorDescriptor(t, shape=[Z * H * N, D], strides=[D, 1],
                              block_shape=[rows, D])
             for t, rows in ((q, bm), (k, bn), (v, bn), (o, bm))]
    scale = D ** -0.5
    kernel[(N // bm, Z * H, 1)](
        scale, m, Z, H, *descs, N_CTX=N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn,
        FP8_OUTPUT=False, STAGE=3 if causal else 1, warp_specialize=False,
        num_stages=stages, num_warps=warps)
    return o, m


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("config", [(128, 64, 3, 4), (128, 64, 4, 4),
                                    (128, 128, 2, 8), (128, 128, 3, 8),
                                    (64, 64, 2, 4), (64, 64, 3, 4)],
                         ids=lambda c: "bm{}_bn{}_s{}_w{}".format(*c))
@pytest.mark.parametrize("shape", [(1, 2, 128, 128), (2, 3, 1024, 128),
                                   (1, 2, 2048, 64), (1, 1, 256, 64),
                                   (1, 2, 1024, 256), (1, 1, 128, 256)],
                         ids=lambda s: "x".join(map(str, s)))
def test_attention_tutorial(kernel, shape, config, causal):
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the tutorial's tensor descriptors need sm_90")
    Z, H, N, D = shape
    bm, bn, stages, warps = config
    if bn > D or N % bm:
        pytest.skip("the tutorial needs BLOCK_N <= HEAD_DIM and whole blocks")
    gen = torch.Generator(device="cuda").manual_seed(N + 7 * D + bm + bn)
    q, k, v = (torch.randn((Z, H, N, D), generator=gen, device="cuda",
                           dtype=torch.float16) for _ in range(3))
    o, m = run(kernel, q, k, v, causal, bm, bn, stages, warps)
    torch.cuda.synchronize()
    ref, lse2 = reference(q, k, v, D ** -0.5, causal)
    torch.testing.assert_close(o.float(), ref, atol=1e-2, rtol=1e-2)
    # M: the row's log-sum-exp in the log2 domain (the backward's input).
    torch.testing.assert_close(m, lse2, atol=1e-3, rtol=1e-3)
