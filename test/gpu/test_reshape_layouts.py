"""tl.reshape on the GPU where AssignLayouts gives the source the preimage
of the result's layout (the reshape renames registers) and where it cannot
(txl.relayout to an accumulator layout, lanes along both source
dimensions: the data goes through shared scratch). A wrong reading of the
layouts puts values at the wrong elements: random int32 data, exact
comparison with torch, outputs poisoned with -123."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import poison_, random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "test", "gpu"))
pytest.importorskip("triton")  # the kernels import triton.language

import txl_kernels_reshape as kernels  # noqa: E402

LAYOUTS = {0: "default", 1: "mla0_index", 2: "coalesced", 3: "rows_fastest",
           4: "wgmma_acc"}


# (N, D, K, M): N rows of K columns (row i holds x[i // D]) viewed as
# [M, N * K // M]; every layout's tile fits [M, 64].
SHAPES = [(512, 8, 8, 64),    # txl_mla0's producer: [512, 8] -> [64, 64]
          (256, 1, 4, 16),
          (128, 4, 32, 64),
          (2048, 2, 2, 64)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUTS.get)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "N{}D{}K{}M{}".format(*s))
def test_broadcast_rows_reshape(shape, layout):
    N, D, K, M = shape
    Q = N * K // M
    MOD = 64 if N == 512 else 37
    gen = torch.Generator(device="cuda").manual_seed(N + D + K + M + layout)
    x = random_tensor((N // D,), torch.int32, generator=gen, low=-1000,
                      high=1000)
    w = random_tensor((K,), torch.int32, generator=gen, low=-1000, high=1000)
    y = poison_(torch.empty((M, Q), dtype=torch.int32, device="cuda"))
    kernels.reshape_broadcast_rows[(1,)](x, w, y, 577, N=N, D=D, K=K, M=M,
                                         MOD=MOD, LAYOUT=layout, num_warps=4)
    torch.cuda.synchronize()
    i = torch.arange(N, device="cuda")
    b = x[i // D][:, None] * 577 + w[None, :]
    f = torch.arange(N * K, device="cuda", dtype=torch.int32)
    want = b.reshape(M, Q) + (f % MOD).reshape(M, Q)
    assert torch.equal(y, want.to(torch.int32))


@pytest.mark.parametrize("R,C", [(128, 16), (64, 8), (512, 2)])
def test_flatten_broadcast(R, C):
    gen = torch.Generator(device="cuda").manual_seed(R * C)
    x = random_tensor((R,), torch.int32, generator=gen, low=-10**6,
                      high=10**6)
    y = poison_(torch.empty((R * C,), dtype=torch.int32, device="cuda"))
    kernels.reshape_flatten[(1,)](x, y, R=R, C=C, num_warps=4)
    torch.cuda.synchronize()
    r = torch.arange(R, device="cuda")[:, None]
    c = torch.arange(C, device="cuda")[None, :]
    want = (x[:, None] * 2 + (r * C + c) % 7).flatten()
    assert torch.equal(y, want.to(torch.int32))


@pytest.mark.parametrize("A,B,C", [(8, 16, 32), (4, 8, 64), (16, 4, 16)])
def test_split_3d_reduce(A, B, C):
    gen = torch.Generator(device="cuda").manual_seed(A * B * C + 1)
    x = random_tensor((A * B * C,), torch.int32, generator=gen, low=-1000,
                      high=1000)
    y = poison_(torch.empty((A, C), dtype=torch.int32, device="cuda"))
    kernels.reshape_split_3d[(1,)](x, y, A=A, B=B, C=C, num_warps=4)
    torch.cuda.synchronize()
    f = torch.arange(A * B * C, device="cuda", dtype=torch.int32)
    want = (x + f).reshape(A, B, C).sum(dim=1)
    assert torch.equal(y, want.to(torch.int32))
