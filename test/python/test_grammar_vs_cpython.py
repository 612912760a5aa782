"""txl's parser builds the same syntax tree as the running CPython for every
file of the repository that CPython accepts (test/fuzz/compare_with_cpython.py
does the comparison; this keeps it true)."""
import glob
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARSER = os.path.join(REPO, "build", "bin", "txl-parser-fuzz")
sys.path.insert(0, os.path.join(REPO, "test", "fuzz"))


def repo_python_files():
    patterns = ["examples/*.py", "tutorials/**/*.py", "test/good/*.py",
                "test/bad/semantic/*.py", "test/fuzz/regressions/*.py",
                "python/txl/*.py", "test/python/*.py"]
    files = []
    for p in patterns:
        files += glob.glob(os.path.join(REPO, p), recursive=True)
    return sorted(files)


@pytest.mark.parametrize("path", repo_python_files(),
                         ids=lambda p: os.path.relpath(p, REPO))
def test_same_tree_as_cpython(path):
    if not os.path.exists(PARSER):
        pytest.skip("build/bin/txl-parser-fuzz not built")
    import compare_with_cpython as cmp
    try:
        want = cmp.cpython_dump(open(path, "rb").read())
    except SyntaxError:
        pytest.skip("this CPython does not accept the file (newer syntax)")
    out = subprocess.run([PARSER, "--dump", path], capture_output=True).stdout
    first, _, got = out.decode("utf-8", "surrogateescape").partition("\n")
    assert first.endswith(": ok"), first
    got = cmp.elif_as_if(got)
    assert cmp.normalize(got) == cmp.normalize(want)
