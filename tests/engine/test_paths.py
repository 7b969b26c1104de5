"""A record's count takes the same path whatever ran before it in the process.

The compiled kernels (``sleuth.solve.compiled``) are the count's own: it turns to them at its
first big step, and a count after it in the same process starts on the numpy path again.
"""

from sleuth.games.goldraub import simulate
from sleuth.record import parse
from sleuth.solve import Entailment, count, merge, tuning


def _model(players: int, turns: int, seed: int):
    doc, _ = simulate.simulate(players, turns, seed)
    return Entailment(parse(doc, "sim").model()).sharpened()


def _sorted(model, monkeypatch) -> list[int]:
    """The successors of each step of a count of ``model`` that merged by sorting."""
    sizes = []
    by_sort = merge.by_sort

    def spy(keys, ways, bits):
        sizes.append(len(ways))
        return by_sort(keys, ways, bits)

    with monkeypatch.context() as patch:
        patch.setattr(merge, "by_sort", spy)
        count(model)
    return sizes


def test_a_count_merges_alike_before_and_after_a_count_that_turned_compiled(monkeypatch):
    small = _model(5, 10, 1)
    fresh = _sorted(small, monkeypatch)
    assert max(fresh) >= tuning.LOADED  # steps that a turned count merges by hash table
    with monkeypatch.context() as patch:
        patch.setattr(tuning, "HASHED", 0)  # this count turns at its first step
        count(_model(5, 12, 2))
    assert _sorted(small, monkeypatch) == fresh
