"""Host-side stand-ins for txl layout objects. Kernels may build layouts
at module level (``L = txl.BlockedLayout(...)``); these record the
arguments so the value can be handed to the compiler as source text."""


class _Layout:
    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs

    def _txl_source(self):
        parts = [_text(a) for a in self.args]
        parts += [f"{k}={_text(v)}" for k, v in sorted(self.kwargs.items())]
        return f"txl.{type(self).__name__}({', '.join(parts)})"

    __repr__ = _txl_source

    def __eq__(self, other):
        return type(self) is type(other) and self.args == other.args and \
            self.kwargs == other.kwargs

    def __hash__(self):
        return hash(self._txl_source())


def _text(value):
    if isinstance(value, _Layout):
        return value._txl_source()
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_text(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner},)"
    return repr(value)


class BlockedLayout(_Layout):
    pass


class SliceLayout(_Layout):
    pass


class NVMMADistributedLayout(_Layout):
    pass


class DotOperandLayout(_Layout):
    pass


class NVMMASharedLayout(_Layout):
    pass


def acc_to_dot_a_columns(bits):
    """The column order of txl.acc_to_dot_a for elements of `bits` (8 or
    16), on the host: a list `order` of G entries (G = 32 for 8 bits, 16
    for 16) such that column g + c of txl.acc_to_dot_a(x) is column
    g + order[c] of x, for every group start g (a multiple of G). A
    tl.dot that takes it as A must see B's rows in the same order: row
    g + c of B holding what was row g + order[c] (for attention's P V, the
    keys of V so permuted within each group of G; the sum over keys is
    unchanged).

    The compiler derives the order from the wgmma layouts
    (wgmmaAccToOperandAColumns); this is the PTX fragments' formula it
    comes to: a thread (lane 4g + q) holds accumulator columns 2q, 2q+1,
    8+2q, 9+2q, ... but, for 8-bit A, columns 4q .. 4q+3 and 16+4q ..
    19+4q, so column 16h + 4q + i of A is the accumulator's column
    16h + 8(i // 2) + 2q + i % 2. For 16-bit A the two agree (identity).
    test_register_a.py checks the two on the GPU."""
    if bits == 16:
        return list(range(16))
    if bits != 8:
        raise ValueError(f"acc_to_dot_a_columns: bits must be 8 or 16, "
                         f"got {bits}")
    return [16 * (c // 16) + 8 * (c % 4 // 2) + 2 * (c % 16 // 4) + c % 2
            for c in range(32)]
