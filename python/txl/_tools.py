"""The `txlc` and `txl-opt` console commands of an installed wheel: they
run the binaries the wheel carries in txl/_bin (a source checkout's
build/bin otherwise)."""
import os
import sys


def _binary(name):
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "_bin", name),
                 os.path.join(here, "..", "..", "build", "bin", name)):
        if os.access(path, os.X_OK):
            return path
    sys.exit(f"{name}: not found in the txl package (txl/_bin) or the "
             "source tree's build/bin")


def _run(name):
    path = _binary(name)
    os.execv(path, [path] + sys.argv[1:])


def txlc():
    _run("txlc")


def txl_opt():
    _run("txl-opt")
