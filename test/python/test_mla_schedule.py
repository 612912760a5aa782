"""The split-KV scheduler of MLA decoding (python/txl/ops/_mla_schedule.py,
pure Python): every page of every entry is covered exactly once, piece
indices agree with num_splits, and the parts' costs are balanced."""

import importlib.util
import os
import random

import pytest

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "python", "txl",
                     "ops", "_mla_schedule.py")
_spec = importlib.util.spec_from_file_location("_mla_schedule", _PATH)
sched = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sched)


def walk(meta, pages):
    """What the kernel does with the metadata: (entry, lo, hi, piece) per
    piece, per part."""
    for row in meta:
        b0, p0, b1, p1, first = row[:5]
        pieces = []
        for b in range(b0, b1 + 1):
            lo = p0 if b == b0 else 0
            hi = p1 if b == b1 else pages[b]
            pieces.append((b, lo, hi, first if b == b0 else 0))
        yield pieces


def check(pages, num_parts):
    meta, splits = sched.schedule(pages, num_parts)
    assert len(meta) == num_parts and all(len(r) == 8 for r in meta)
    assert len(splits) == len(pages) + 1 and splits[0] == 0
    covered = [[] for _ in pages]
    seen = [set() for _ in pages]
    costs = []
    for pieces in walk(meta, pages):
        cost = 0
        for b, lo, hi, k in pieces:
            assert 0 <= lo <= hi <= pages[b]
            covered[b].append((lo, hi))
            assert k not in seen[b], "two pieces of one entry share a slot"
            seen[b].add(k)
            cost += sched.PIECE_COST + hi - lo
        costs.append(cost)
    for b, spans in enumerate(covered):
        n = splits[b + 1] - splits[b]
        assert n == len(spans) >= 1, f"entry {b}: {n} splits, {spans}"
        assert seen[b] == set(range(n))
        spans.sort()
        assert spans[0][0] == 0 and spans[-1][1] == pages[b]
        for (_, hi), (lo, _) in zip(spans, spans[1:]):
            assert hi == lo, f"entry {b}: pages covered twice or never"
    return costs


@pytest.mark.parametrize("num_parts", [1, 2, 33, 66, 132])
@pytest.mark.parametrize("batch", [1, 4, 33, 132])
def test_cover(batch, num_parts):
    rng = random.Random(batch * 1000 + num_parts)
    pages = [rng.choice([0, 1, 2, 64, 513]) if rng.random() < 0.3
             else rng.randint(1, 900) for _ in range(batch)]
    check(pages, num_parts)


def test_balanced():
    """Ragged lengths over 66 parts: no part more than 3% above the mean
    (the last part must not collect the others' rounding: a scheduler with
    one fixed share per part gave it 26% more)."""
    rng = random.Random(7)
    pages = [-(-rng.randint(16384, 49151) // 64) for _ in range(132)]
    costs = check(pages, 66)
    mean = sum(costs) / len(costs)
    assert max(costs) <= 1.03 * mean, (max(costs), mean)


def test_uniform_no_splits():
    """132 equal entries over 66 parts: two whole entries each."""
    meta, splits = sched.schedule([512] * 132, 66)
    assert splits == list(range(133))
    assert all(r[3] == 512 and r[2] == r[0] + 1 for r in meta)


def test_more_parts_than_work():
    """Parts left without work get an empty range."""
    meta, _ = sched.schedule([1, 0, 2], 132)
    check([1, 0, 2], 132)
    assert all(r[0] > r[2] for r in meta[8:])
