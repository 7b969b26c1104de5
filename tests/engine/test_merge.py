"""The two ways of merging equal states (sort and hash table) agree, and the counter uses both."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.games.goldraub.simulate import simulate
from sleuth.record import parse
from sleuth.solve import Entailment, count, merge, tuning
from sleuth.solve.compiled import by_hash

keys_and_weights = st.integers(1, 2).flatmap(
    lambda words: st.lists(
        st.tuples(st.lists(st.integers(0, 7), min_size=words, max_size=words), st.integers(1, 9)),
        max_size=60,
    )
)


def _sums(unique, sums):
    return {tuple(int(w) for w in unique[:, j]): int(sums[j]) for j in range(len(sums))}


@settings(max_examples=200, deadline=None)
@given(keys_and_weights, st.lists(st.integers(0, 60), max_size=3))
def test_hash_and_sort_merge_the_same_keys_to_the_same_sums(rows, cuts):
    words = len(rows[0][0]) if rows else 1
    keys = np.array([k for k, _ in rows], dtype=np.uint64).reshape(len(rows), words).T.copy()
    ways = np.array([w for _, w in rows], dtype=np.int64)
    bounds = [0, *sorted(min(c, len(rows)) for c in cuts), len(rows)]
    spans = list(zip(bounds, bounds[1:], strict=False))
    results = [merge.by_sort(keys, ways, 3 * words)]
    for bucket in (None, 2):  # one table, then many buckets (keys spread by their hash)
        pieces = [keys[:, a:b] for a, b in spans]  # the hash merge takes pieces
        carry = [np.arange(a, b) for a, b in spans]  # and which weights each piece's keys carry
        results.append(_bucketed(bucket, pieces, carry, ways))
        assert not pieces and not carry  # emptied as they went into the buckets
    for unique, _, dest in results:
        assert unique.shape[1] == len({tuple(k) for k, _ in rows})
        assert np.array_equal(unique[:, dest], keys)  # every key went to its equal
    expected: dict = {}
    for k, w in rows:
        expected[tuple(k)] = expected.get(tuple(k), 0) + w
    for unique, sums, _ in results:
        assert _sums(unique, sums) == expected


def _bucketed(bucket, pieces, rows, ways):
    """``by_hash`` with about ``bucket`` keys a bucket, or in one table (None)."""
    if bucket is None:
        return by_hash(pieces, rows, ways)
    before = tuning.BUCKET, tuning.SPREAD
    tuning.BUCKET, tuning.SPREAD = bucket, 0
    try:
        return by_hash(pieces, rows, ways)
    finally:
        tuning.BUCKET, tuning.SPREAD = before


def test_big_keys_merge_alike_both_ways():
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 1 << 62, size=(2, 5000), dtype=np.uint64)
    keys[:, 2500:] = keys[:, :2500]  # every key twice
    ways = rng.integers(1, 1 << 40, size=5000)
    rows = [np.arange(3000, 5000), np.arange(3000)]  # pieces need not come in order
    unique, sums, dest = _bucketed(64, [keys[:, 3000:], keys[:, :3000]], rows, ways)
    keys = np.concatenate([keys[:, 3000:], keys[:, :3000]], axis=1)  # in the pieces' order
    ways = np.concatenate([ways[3000:], ways[:3000]])
    assert unique.shape[1] == len({tuple(c) for c in keys.T})
    assert np.array_equal(unique[:, dest], keys)
    assert _sums(unique, sums) == _sums(*merge.by_sort(keys, ways, 64)[:2])


def test_a_count_is_the_same_whichever_way_its_states_merge(monkeypatch):
    doc, _ = simulate(6, 12, 3)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    counts = []
    for threshold in (0, 10**12):  # every step by the hash table, then every step by sorting
        monkeypatch.setattr(tuning, "HASHED", threshold)
        monkeypatch.setattr(tuning, "LOADED", threshold)
        counts.append(count(model))
    assert counts[0].total == counts[1].total == 85104181186
    assert counts[0].held == counts[1].held
