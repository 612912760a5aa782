"""The Python package exports exactly the builtins the compiler accepts
(its registry, python/txl/_builtins.py, generated from `txlc
--list-builtins`), each with the registry's signature and doc."""

import glob
import inspect
import os
import subprocess
import sys

import pytest

import txl
import txl.language as tl
from txl._builtins import BUILTINS
from txl.language.extra import libdevice

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = {"tl.": tl, "tl.math.": tl.math, "libdevice.": libdevice,
           "txl.": txl}


def spellings(accepted):
    """(module prefix, short name, row) for every name of every row."""
    for row in BUILTINS:
        name, aliases, support = row[0], row[1], row[2]
        if (support != "not yet") != accepted:
            continue
        for spelled in (name,) + tuple(aliases):
            for prefix in MODULES:
                short = spelled[len(prefix):]
                if spelled.startswith(prefix) and "." not in short:
                    yield prefix, short, row


def test_table_matches_the_compiler():
    # build/ first: build-wheel/ (the wheel's tree) may be older.
    found = sorted(glob.glob(os.path.join(REPO, "build*", "bin", "txlc")),
                   key=lambda p: (os.path.basename(os.path.dirname(
                       os.path.dirname(p))) != "build", p))
    if not found:
        pytest.skip("no built txlc")
    script = os.path.join(REPO, "scripts", "gen_builtins.py")
    result = subprocess.run([sys.executable, script, "--txlc", found[0],
                             "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("prefix", sorted(MODULES))
def test_exports_exactly_what_the_compiler_accepts(prefix):
    module = MODULES[prefix]
    accepted = {short for p, short, _ in spellings(True) if p == prefix}
    stubs = {name for name, value in vars(module).items()
             if getattr(value, "_txl_device_stub", False)}
    # Every stub is an accepted function; every accepted function exists
    # (as a stub, or as the real class/host function the package defines).
    assert stubs <= accepted, stubs - accepted
    missing = {n for n in accepted if not hasattr(module, n)}
    assert not missing


def test_stubs_carry_signature_and_doc():
    for prefix, short, row in spellings(True):
        value = getattr(MODULES[prefix], short)
        if not getattr(value, "_txl_device_stub", False):
            continue  # a real class or host function (txl.BlockedLayout)
        assert str(inspect.signature(value)) == row[4], (prefix, short)
        assert value.__doc__ and value.__doc__.startswith(row[5])


def test_not_yet_functions_say_so():
    for prefix, short, row in spellings(False):
        if prefix in ("tl.", "txl."):
            with pytest.raises(AttributeError, match="not supported by txl yet"):
                getattr(MODULES[prefix], short)


def test_help_is_useful():
    assert str(inspect.signature(txl.tma_load)).startswith("(value, desc")
    assert "TMA" in txl.tma_load.__doc__
    assert "sm_90" in txl.tma_load.__doc__
