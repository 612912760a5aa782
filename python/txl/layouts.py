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
