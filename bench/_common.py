"""Helpers shared by the benchmark scripts."""

import os
import subprocess


def git_revision(repo):
    """The commit the measured library was built from: the bundle's stamp
    (scripts/make-device-bundle.sh; the GPU machine's copy of the tree may
    carry a stale .git), else `git rev-parse` of `repo`, else "?"."""
    stamp = os.path.join(repo, ".bundle", "GIT_HEAD")
    try:
        if os.path.exists(stamp):
            with open(stamp) as f:
                return f.read().strip()
        return subprocess.run(
            ["git", "-C", repo, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10).stdout.strip() or "?"
    except Exception:  # noqa: BLE001
        return "?"
