"""Kernels for test_reshape_layouts.py: reshapes whose sources AssignLayouts
gives the preimage of the result's layout (the register renaming path),
and ones it cannot (the shared-scratch path), in the shape of the TXL
project's sparse MLA producer: a [N] row index loaded once per group of
D, broadcast to [N, K] and viewed as [M, Q], plus a range `% MOD` viewed
the same way, relaid out to the layout LAYOUT names."""
import triton.language as tl
import txl


@txl.jit
def _to_layout(v, M: tl.constexpr, Q: tl.constexpr, LAYOUT: tl.constexpr):
    if LAYOUT == 1:  # txl_mla0's index layout: 8 columns per thread
        v = txl.relayout(v, (M, Q), txl.BlockedLayout([1, 8], [4, 8],
                                                      [4, 1], [1, 0]))
    elif LAYOUT == 2:  # a store's coalesced [1, 4]
        v = txl.relayout(v, (M, Q), txl.BlockedLayout([1, 4], [2, 16],
                                                      [4, 1], [1, 0]))
    elif LAYOUT == 3:  # rows fastest: lanes step both source dims
        v = txl.relayout(v, (M, Q), txl.BlockedLayout([2, 1], [8, 4],
                                                      [1, 4], [0, 1]))
    elif LAYOUT == 4:  # a wgmma accumulator's: no blocked preimage
        v = txl.relayout(v, (M, Q), txl.NVMMADistributedLayout(
            [3, 0], [4, 1], [16, 64, 16]))
    return v


@txl.jit
def reshape_broadcast_rows(x_ptr, w_ptr, y_ptr, SCALE, N: tl.constexpr,
                           D: tl.constexpr, K: tl.constexpr,
                           M: tl.constexpr, MOD: tl.constexpr,
                           LAYOUT: tl.constexpr):
    # y[m, q] over the flat index f = m * Q + q = i * K + k:
    #   x[i // D] * SCALE + w[k] + f % MOD
    Q: tl.constexpr = N * K // M
    row = tl.load(x_ptr + tl.arange(0, N) // D) * SCALE
    w = tl.load(w_ptr + tl.arange(0, K))
    b = tl.broadcast_to(row[:, None], (N, K)) + w[None, :]
    v = _to_layout(tl.reshape(b, (M, Q)), M, Q, LAYOUT)
    inc = _to_layout(tl.reshape(tl.arange(0, N * K) % MOD, (M, Q)), M, Q,
                     LAYOUT)
    v = v + inc
    m = tl.arange(0, M)[:, None]
    q = tl.arange(0, Q)[None, :]
    tl.store(y_ptr + m * Q + q, v)


@txl.jit
def reshape_flatten(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    # A [R, C] broadcast sum flattened to [R * C] and stored by a 1-D
    # range: y[r * C + c] = x[r] * 2 + (r * C + c) % 7.
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r)
    t = tl.broadcast_to((x * 2)[:, None], (R, C)) + \
        (r[:, None] * C + c[None, :]) % 7
    flat = tl.reshape(t, (R * C,))
    tl.store(y_ptr + tl.arange(0, R * C), flat)


@txl.jit
def reshape_split_3d(x_ptr, y_ptr, A: tl.constexpr, B: tl.constexpr,
                     C: tl.constexpr):
    # [A * B * C] -> [A, B, C], summed over B and stored as [A, C]:
    # y[a, c] = sum_b (x[(a * B + b) * C + c] + (a * B + b) * C + c).
    f = tl.arange(0, A * B * C)
    v = tl.load(x_ptr + f) + f
    t = tl.sum(tl.reshape(v, (A, B, C)), axis=1)
    a = tl.arange(0, A)[:, None]
    c = tl.arange(0, C)[None, :]
    tl.store(y_ptr + a * C + c, t)
