"""A pytest plugin that keeps one shard of the collected tests, so that a
test file too long for one device call runs in several.

    PYTEST_SHARD=1/2 python3 -m pytest -p pytest_shard ...

keeps every second test starting with the first (shards count from 1).
Items are dealt round-robin in collection order, which is the same in every
process (pytest-xdist workers collect the same list), so the shards of one
file are disjoint and together cover it; round-robin also spreads a slow
parametrized test over the shards instead of giving it to one."""
import os


def _shard():
    spec = os.environ.get("PYTEST_SHARD", "")
    if not spec:
        return None
    index, count = (int(x) for x in spec.split("/"))
    if not 1 <= index <= count:
        raise ValueError(f"PYTEST_SHARD={spec}: want i/n with 1 <= i <= n")
    return index - 1, count


def pytest_collection_modifyitems(config, items):
    shard = _shard()
    if shard is None:
        return
    index, count = shard
    keep, drop = [], []
    for position, item in enumerate(items):
        (keep if position % count == index else drop).append(item)
    config.hook.pytest_deselected(items=drop)
    items[:] = keep
