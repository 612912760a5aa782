"""`triton.language.extra.libdevice` as txl accepts it (stubs with
signatures and docs, from the builtin registry)."""

from ..core import _export, _unsupported

_MISSING = _export(globals(), "libdevice.")


def __getattr__(name):
    raise _unsupported("libdevice", name, _MISSING)
