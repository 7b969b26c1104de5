"""The compiled loops of the layer engine agree with the numpy they replace."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.games.goldraub.simulate import simulate
from sleuth.record import parse
from sleuth.solve import merge, vector
from sleuth.solve.count import count
from sleuth.solve.entail import Entailment

kernels = pytest.importorskip("sleuth.solve.kernels")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, (1 << 64) - 1), max_size=40),
    st.integers(0, 63),
    st.integers(1, 8),
)
def test_a_field_unpacks_as_numpy_shifts_and_masks(words, shift, width):
    keys = np.array(words, dtype=np.uint64)
    mask = (1 << width) - 1
    out = np.empty(len(keys), dtype=np.int16)
    kernels.unpacked(keys, shift, mask, out)
    assert np.array_equal(out, ((keys >> np.uint64(shift)) & np.uint64(mask)).astype(np.int16))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_a_backward_step_gathers_as_numpy(marked, rnd):
    n, successors = len(marked), 7
    rows = np.flatnonzero(marked)
    dest = np.array([rnd.randrange(successors) for _ in rows], dtype=np.int32)
    back = np.array([rnd.randrange(1 << 20) for _ in range(successors)], dtype=np.int64)
    ways = np.array([rnd.randrange(1 << 20) for _ in range(n)], dtype=np.int64)
    here = np.array([rnd.randrange(9) for _ in range(n)], dtype=np.int64)
    expected = here.copy()
    expected[rows] += back[dest]
    held = kernels.gathered(np.packbits(np.array(marked)), dest, back, ways, here)
    assert np.array_equal(here, expected)
    assert held == int(np.dot(ways[rows], back[dest]))


def test_a_count_is_the_same_with_the_compiled_loops_and_without(monkeypatch):
    doc, _ = simulate(6, 12, 3)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    monkeypatch.setattr(merge, "HASHED", 0)  # loads numba at the first step
    monkeypatch.setattr(vector, "UNPACKED", 0)  # and unpacks every field in the loop
    counts = []
    for compiled in (True, False):
        monkeypatch.setattr(vector, "COMPILED", compiled)
        counts.append(count(model))
    assert merge.loaded()
    assert counts[0].total == counts[1].total == 85104181186
    assert counts[0].held == counts[1].held
