"""`tl.math.*`: the device functions the compiler accepts under tl.math
(stubs with their signatures and docs, from the builtin registry)."""

from .core import _export, _unsupported

_MISSING = _export(globals(), "tl.math.")


def __getattr__(name):
    raise _unsupported("tl.math", name, _MISSING)
