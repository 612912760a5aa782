"""`tl.extra`: libdevice (also as tl.extra.cuda.libdevice)."""

from . import cuda, libdevice  # noqa: F401
