"""`tl.extra.cuda`: libdevice and the CUDA extras the compiler accepts
(globaltimer, smid, num_threads: stubs from the builtin registry)."""

from .. import libdevice  # noqa: F401
from ...core import _export, _unsupported

_MISSING = _export(globals(), "tl.extra.cuda.")


def __getattr__(name):
    raise _unsupported("tl.extra.cuda", name, _MISSING)
