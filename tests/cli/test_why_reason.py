"""``sleuth why``'s reason in plain words and its smallest proof.

A plain reason is given only when the fact follows from what the proof's events state by
simple counting (``sleuth.deduce``): every such deduction is checked by brute force, and each
sentence kind is shown where it applies and where it does not. A proof said to be the
smallest is checked against every smaller set of the record's groups.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from sleuth.deduce import follows, propagated
from sleuth.games.goldraub.simulate import simulate
from sleuth.model import holds
from sleuth.record import parse
from sleuth.render.why import reason
from sleuth.solve import Entailment, count
from sleuth.store import load
from sleuth.why import Proof, proof, worded

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str, tmp_path: Path):
    """A shipped example record, loaded from a copy."""
    path = tmp_path / name
    path.write_text((EXAMPLES / name).read_text())
    return load(path, keep=False)[0]


def small(seed: int):
    """A simulated 3-player Goldraub record of a few turns."""
    doc, _ = simulate(3, 6, seed, me=seed % 3, guesses=0.5)
    return parse(doc, "simulated")


def forced_by_counting(model, groups, pair, yes) -> bool:
    """Whether the groups force the holding (or its absence), by exact counts."""
    part = model.restrict(set(groups))
    contrary = part.with_group(0, part.groups[0] + (holds(*pair, not yes),))
    return count(part).total > 0 and count(contrary).total == 0


@pytest.mark.parametrize("seed", [1, 3])
def test_every_simple_deduction_is_true(seed):
    record = small(seed)
    model = record.model()
    entail = Entailment(model)
    found = 0
    every = [g for size in (1, 2, 3) for g in combinations(range(len(model.groups)), size)]
    for k, groups in enumerate(every):
        yes_side, no_side = entail.forced(groups), entail.impossible(groups)
        facts = propagated(model, list(groups))
        for pair in entail.x:
            for yes, side in ((True, yes_side), (False, no_side)):
                if facts.get(pair) == yes:
                    found += 1
                    assert pair in side, (groups, pair, yes)
                    if found % 50 == 1:
                        assert forced_by_counting(model, groups, pair, yes)
                if k % 10 == 0:  # follows, which stops at its pair, says the same
                    assert follows(model, list(groups), pair, yes) is (facts.get(pair) == yes)
    assert found


def test_a_right_guess_is_its_own_reason(tmp_path):
    record = example("goldraub-6p.yaml", tmp_path)
    shown = reason(record, worded(record, Proof("Bert", "52", True, [6], True)))
    assert shown == "Franz's right guess at event 6 showed Bert holds 52."


def test_a_search_answered_0_with_my_hand_puts_the_sector_aside(tmp_path):
    record = example("goldraub-6p.yaml", tmp_path)
    found = proof(record, "aside", "47")[0]
    assert found.groups == [0, 3] and found.smallest
    assert reason(record, found) == (
        "My hand is 12, 46 and 67; no one but me holds a sector of 47-77 (event 3): "
        "so aside holds 47."
    )
    # without my hand the search leaves 47 to me or aside: no plain reason from event 3 alone
    assert not follows(record.model(), [3], ("aside", "47"), True)


def test_searches_with_counts_and_a_guess_pin_a_sector(tmp_path):
    record = example("goldraub-6p.yaml", tmp_path)
    found = worded(record, Proof("aside", "42", True, [0, 6, 7, 19], True))
    said = reason(record, found)
    assert "1 player other than Franz holds a sector of 41-47" in said
    assert "none of them among Anton and Bert (event 7)" in said
    assert said.endswith(": so aside holds 42.")


def test_a_proof_counting_cannot_follow_keeps_the_general_sentence(tmp_path):
    record = example("goldraub-6p.yaml", tmp_path)
    found = worded(record, Proof("aside", "35", True, [0, 1, 29], True))
    assert Entailment(record.model()).forced([0, 1, 29]) >= {("aside", "35")}
    assert not follows(record.model(), [0, 1, 29], ("aside", "35"), True)
    assert reason(record, found).startswith("Together, the setup and these 2 events")


def test_lima_answers_of_0_and_of_a_whole_hand_are_said_plainly(tmp_path):
    record = example("lima-5p.yaml", tmp_path)
    from sleuth.games.lima.why import plainly

    model = record.model()
    size = record.start.hand_size
    for k, event in enumerate(record.events, 1):
        said = plainly(record, k)
        answer = getattr(event, "answer", None)
        if answer == 0:
            assert f"{event.to} holds none of {event.range}" in said or "I hold none" in said
        elif answer == size:
            assert f"all {size} of" in said
        elif answer is not None:
            assert f" {answer} of {event.range}" in said
        assert said.endswith(f"(event {k})") or "accusation" in said
    assert plainly(record, 0).startswith(f"my hand is {record.start.hand[0]}")
    facts = [p for p in Entailment(model).forced() if p[0] == "public"]
    assert all(p[1] in plainly(record, 0) for p in facts)


def test_a_lima_proof_said_plainly_follows_by_counting(tmp_path):
    record = example("lima-5p.yaml", tmp_path)
    found = proof(record, "Ana", "6B")[0]
    said = reason(record, found)
    assert said.startswith("My hand is") and said.endswith(": so Ana holds 6B.")
    assert follows(record.model(), found.groups, ("Ana", "6B"), True)


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_a_proof_said_smallest_has_no_smaller_proof(seed):
    record = small(seed)
    entail = Entailment(record.model())
    checked = 0
    for holder, item in sorted(entail.forced() - entail.forced([0])):
        found = proof(record, holder, item, entail)[0]
        if not found.smallest:
            continue
        groups = range(len(entail.guards))
        for size in range(len(found.groups)):
            for fewer in combinations(groups, size):
                assert not entail.proves(fewer, (holder, item)), (holder, item, fewer)
        checked += 1
    assert checked


def test_a_minimal_proof_past_its_work_is_said_to_be_only_minimal(tmp_path, monkeypatch):
    import sleuth.why

    monkeypatch.setattr(sleuth.why, "WORK", 0)
    record = example("goldraub-6p.yaml", tmp_path)
    found = proof(record, "aside", "47")[0]
    assert not found.smallest
    from sleuth.render.why import size_note

    assert "a smaller set may exist" in size_note(found)


def test_a_proof_does_not_depend_on_what_z3_did_before_in_the_process(tmp_path):
    """Of two proofs of one size, z3 picks one by the order its terms were made: each
    ``Entailment`` makes its own, so a session at the table gives the proof a command gives."""
    watched = example("goldraub-watched.yaml", tmp_path).upto(40)
    first = proof(watched, "Bert", "11")
    assert first is not None and first[0].smallest and len(first[0].groups) == 2
    other = example("goldraub-rulebook.yaml", tmp_path).upto(40).public()
    assert proof(other, "Bert", "11") == first
    assert proof(watched, "Bert", "11") == first


def test_a_proof_is_the_same_however_slow_the_machine(tmp_path, monkeypatch):
    """The smallest proof's search is bounded by z3's count of its work, not by time: a machine
    on which every second of processor time passes at each look at the clock finds it too."""
    import time

    watched = example("goldraub-watched.yaml", tmp_path).upto(40)
    fast = proof(watched, "Bert", "11")
    clock = iter(range(0, 10**9, 10))
    monkeypatch.setattr(time, "process_time", lambda: float(next(clock)))
    assert proof(watched, "Bert", "11") == fast
    assert fast is not None and fast[0].smallest and fast[1] is not None and fast[1].smallest
