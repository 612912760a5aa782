"""A generic correctness harness for txl kernels on the GPU.

    check(launch=lambda out, x: kernel[grid](x, out, n, BLOCK=1024),
          reference=lambda x: x * 2,
          inputs=[randn(n)], outputs=[empty(n)])

Inputs are used as given; outputs are poisoned (NaN for floats, a sentinel
for ints) before the launch so that an element the kernel never writes
cannot pass by accident. The reference runs in float64 (ints as is) and the
result, rounded to each output's dtype, is compared with
torch.testing.assert_close.
"""

import torch


def poison_(tensor):
    if tensor.dtype.is_floating_point:
        tensor.fill_(float("nan"))
    elif tensor.dtype == torch.bool:
        tensor.fill_(True)
    else:
        tensor.fill_(-123)
    return tensor


def random_tensor(shape, dtype, device="cuda", generator=None, low=-4, high=4):
    if dtype.is_floating_point:
        x = torch.randn(shape, dtype=torch.float32, device=device,
                        generator=generator)
        return x.to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, device=device,
                             generator=generator).bool()
    return torch.randint(low, high, shape, dtype=dtype, device=device,
                         generator=generator)


def _widen(t):
    return t.double() if t.dtype.is_floating_point else t


def check(launch, reference, inputs, outputs, atol=1e-2, rtol=1e-3):
    """Runs `launch(*outputs, *inputs)` and compares every output with
    `reference(*inputs)` (a tensor or a tuple of tensors)."""
    for out in outputs:
        poison_(out)
    launch(*outputs, *inputs)
    torch.cuda.synchronize()
    expected = reference(*[_widen(x) for x in inputs])
    if isinstance(expected, torch.Tensor):
        expected = (expected,)
    assert len(expected) == len(outputs)
    for got, want in zip(outputs, expected):
        # Round the exact reference to the output's type: then a correctly
        # rounded kernel matches it bit for bit (atol=rtol=0 works).
        torch.testing.assert_close(got, want.to(got.dtype), atol=atol,
                                   rtol=rtol, equal_nan=False)


RAGGED_SIZES = [1, 7, 31, 127, 128, 1000, 4097, 98432, (1 << 20) + 3]
