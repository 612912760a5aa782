"""is_warp roles past num_warps x num_warpgroups launch extra warps
(docs/blackwell.md): a TMA producer warp 4 beside four tensor warps, on
Hopper (the same machinery the TXL project's Blackwell GEMM uses for its
TMA and MMA warps). Random inputs, a float64 reference, a poisoned output
and ragged sizes: out-of-tile elements (TMA zero fill) add nothing to the
column sums, and the store is masked."""

import pytest
import torch

import txl
from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_extra_warps import extra_warp_producer

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


# Rows of 72 and 36 fp32 (288 and 144 bytes) keep TMA's 16-byte stride
# rule while leaving a ragged last tile in both dimensions.
@pytest.mark.parametrize("shape", [(64, 64), (128, 96), (100, 72),
                                   (1000, 36)],
                         ids=lambda s: "x".join(map(str, s)))
def test_extra_warp_producer(shape):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    M, N = shape
    BM, BN = 64, 32
    x = random_tensor((M, N), torch.float32)
    y = torch.empty_like(x)

    def launch(y_, x_):
        desc = txl.TensorDescriptor.from_tensor(x_, [BM, BN])
        grid = ((M + BM - 1) // BM, (N + BN - 1) // BN)
        extra_warp_producer[grid](desc, y_, M, N, BM=BM, BN=BN, num_warps=4)

    def reference(x_):
        out = torch.empty_like(x_)
        for m0 in range(0, M, BM):
            for n0 in range(0, N, BN):
                tile = x_[m0:m0 + BM, n0:n0 + BN]
                out[m0:m0 + BM, n0:n0 + BN] = tile + tile.sum(0) + 1
        return out

    check(launch, reference, inputs=[x], outputs=[y], atol=1e-4, rtol=1e-5)
