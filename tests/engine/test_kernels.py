"""The compiled loops of the layer engine agree with the numpy they replace."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.games.goldraub.simulate import simulate
from sleuth.record import parse
from sleuth.solve import Entailment, count, merge, tuning
from sleuth.solve import compiled as kernels


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
    monkeypatch.setattr(tuning, "UNPACKED", 0)  # once turned, every field unpacks in the loop
    turn, turned = merge.Kernels.turn, []
    monkeypatch.setattr(merge.Kernels, "turn", lambda self: turned.append(self) or turn(self))
    counts = []
    for hashed in (0, 10**12):  # compiled from the first step, then never
        monkeypatch.setattr(tuning, "HASHED", hashed)
        counts.append(count(model))
    assert turned
    assert counts[0].total == counts[1].total == 85104181186
    assert counts[0].held == counts[1].held
