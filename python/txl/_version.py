"""txl's version: in a source checkout the repository's VERSION file (the
one home of the number libtxl, txlc and the metadata report too), in an
installed wheel the distribution's (which was read from that file)."""
import os


def _read_version():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, "..", "..", "VERSION")) as f:
            return f.read().strip()
    except OSError:
        pass
    try:
        from importlib.metadata import version
        return version("txl")
    except Exception:  # not installed either
        return "unknown"


__version__ = _read_version()
