"""run_compat.py --update: how a failing case's recorded reason is kept or
refreshed (refreshed_reason)."""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "run_compat", os.path.join(HERE, "..", "compat", "run_compat.py"))
run_compat = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_compat)
refreshed = run_compat.refreshed_reason


def test_reason_naming_the_first_error_is_kept_with_its_note():
    old = "'x' is not supported [a.py:3] (issue 17)"
    assert refreshed(old, "error", "'x' is not supported [a.py:3]") == old


def test_a_later_finding_that_is_now_first_keeps_its_note():
    old = ("'try' is not supported [a.py:38]; with host code blanked (as "
           "@txl.jit does): 'txl.tmem_alloc' is not supported [a.py:2087] "
           "(Blackwell-only: issue 17)")
    assert refreshed(old, "error",
                     "'txl.tmem_alloc' is not supported [a.py:2087]") == (
        "'txl.tmem_alloc' is not supported [a.py:2087] "
        "(Blackwell-only: issue 17)")


def test_a_stale_reason_is_replaced():
    old = "'try' is not supported [a.py:5] (a note about 'try')"
    assert refreshed(old, "error", "name 'txl' is not defined [a.py:94]") == \
        "name 'txl' is not defined [a.py:94]"
    assert refreshed(old, "internal", "ptxas failed") == \
        "internal: ptxas failed"


def test_a_new_failure_gets_the_message():
    assert refreshed("", "crash", "killed by signal 11") == \
        "crash: killed by signal 11"
