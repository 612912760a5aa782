"""`tl.extra.cuda`: libdevice."""

from .. import libdevice  # noqa: F401
