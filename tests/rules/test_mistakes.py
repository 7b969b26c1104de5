"""Mistakes at the table: contradictions explained and repaired, one wrong answer tolerated.

Repairs and the tolerant count are checked against brute force on small spaces and against
simulated games of both games in which one recorded answer was changed.
"""

from __future__ import annotations

import json
import random
import sys
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles.brute import brute_count  # noqa: E402
from records import GUESS_LINE, SEARCH_LINE  # noqa: E402
from records import HEAD as RULEBOOK  # noqa: E402

import sleuth.mistakes  # noqa: E402
from sleuth.analysis import given as odds_given  # noqa: E402
from sleuth.analysis import report  # noqa: E402
from sleuth.cli import app  # noqa: E402
from sleuth.document import parse_yaml  # noqa: E402
from sleuth.games.goldraub import simulate as goldraub_sim  # noqa: E402
from sleuth.games.lima import simulate as lima_sim  # noqa: E402
from sleuth.mistakes import candidates, repairs, tolerant  # noqa: E402
from sleuth.model import Model, Space, Tally, Term, holds  # noqa: E402
from sleuth.record import parse  # noqa: E402
from sleuth.solve import Entailment, count  # noqa: E402
from sleuth.store import load  # noqa: E402

HEAD = RULEBOOK + "events:\n" + SEARCH_LINE + GUESS_LINE
WRONG = "  - search: {by: Christl, row: 31-36, gold: 0}\n"
LIMA = """\
game: lima
players: [Ana, Ben, Cy, Di, Ed]
me: Cy
hand: [2F, 5B, 7M, 8F]
known: {Ben: [3M], Di: [1B]}
public: [4F, 6B]
events:
  - secret: {by: Cy, to: Ben, range: N-S, answer: 2}
  - ask: {by: Ana, to: Ben, range: N-N, terrain: mountain, answer: 2}
  - ask: {by: Di, to: Ben, range: N-S, answer: 1}
"""


@pytest.fixture
def unhurried(monkeypatch):
    """Repairs searched to the end, however loaded the machine: these tests check what they find."""
    monkeypatch.setattr(sleuth.mistakes, "REPAIR_SHARE", 1.0)


def run(path: Path, *args: str):
    """Invoke the app on the record at ``path``."""
    return CliRunner().invoke(app, [*map(str, args), "--file", str(path)])


def written(tmp_path: Path, text: str) -> Path:
    """A hand-written record."""
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


# Brute force over a small space: every deal, and how many answers (groups) it contradicts.


def deals(space: Space):
    """Every deal of a small space, as item -> holder."""
    cards = [h for h in space.holders for _ in range(space.sizes[h])]
    for order in set(permutations(cards)):
        yield dict(zip(space.items, order, strict=True))


def brute_tolerant(model: Model) -> tuple[int, dict]:
    """Deals that satisfy the setup and contradict at most one other group: count, held."""
    total, held = 0, {}
    for deal in deals(model.space):
        if not all(t.holds(deal) for t in model.groups[0]):
            continue
        wrong = sum(not all(t.holds(deal) for t in g) for g in model.groups[1:])
        if wrong <= 1:
            total += 1
            for item, holder in deal.items():
                held[holder, item] = held.get((holder, item), 0) + 1
    return total, held


SMALL = Space(("A", "B", "C", "aside"), {"A": 2, "B": 2, "C": 1, "aside": 2}, tuple("1234567"))


@st.composite
def small_models(draw) -> Model:
    """A setup fact and 1-5 groups of random tallies over a 7-item, 4-holder space."""
    items = SMALL.items
    holders = SMALL.holders[:3]

    def tally() -> Tally:
        terms = tuple(
            Term(
                draw(st.sampled_from(holders)),
                frozenset(draw(st.sets(st.sampled_from(items), min_size=1))),
                draw(st.booleans()),
            )
            for _ in range(draw(st.integers(1, 2)))
        )
        return Tally(terms, frozenset(draw(st.sets(st.integers(0, 3), min_size=1, max_size=2))))

    groups = [(holds("A", "1"),)]
    groups += [
        tuple(tally() for _ in range(draw(st.integers(0, 2))))
        for _ in range(draw(st.integers(1, 5)))
    ]
    return Model(SMALL, tuple(groups))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_models())
def test_tolerant_count_equals_brute_force(model):
    result = tolerant(model, Entailment(model))
    total, held = brute_tolerant(model)
    assert result.odds.exact and result.odds.worlds == total
    for h in SMALL.holders:
        for i in SMALL.items:
            assert result.odds.held[h, i] == held.get((h, i), 0), (h, i)
    certain = {k for k, n in held.items() if n == total} if total else set()
    assert result.robust == certain
    assert result.answers == sum(bool(g) for g in model.groups[1:])


@pytest.mark.parametrize("cut", [5])
def test_conditional_odds_under_tolerance_skip_nothing_that_counts(cut):
    doc, _ = lima_sim.simulate(4, 12, seed=5)
    record = parse(dict(doc, events=doc["events"][:cut]), "sim")
    loose = report(record, tolerate=1)
    model = record.model()
    for fact in (holds("treasure", "1F"), holds("Ana", "5M"), holds("Ben", "2B", False)):
        conditioned = model.with_group(0, model.groups[0] + (fact,))
        full = tolerant(conditioned, Entailment(conditioned)).odds
        quick = odds_given(loose, (fact,))
        assert (quick.worlds, quick.held) == (full.worlds, full.held)


# Repairs and the tolerance on simulated games with one answer changed.


def corrupted(doc: dict, rng: random.Random) -> tuple[dict, int, str, object] | None:
    """The record with one answer changed at random, the event, the field and the true value."""
    events = [
        (k, e)
        for k, e in enumerate(doc["events"])
        for kind, f in e.items()
        if set(f) & {"gold", "saw", "answer", "correct"}
    ]
    if not events:
        return None
    k, event = rng.choice(events)
    ((kind, fields),) = event.items()
    name = rng.choice(sorted(set(fields) & {"gold", "saw", "answer", "correct"}))
    true = fields[name]
    wrong = (not true) if isinstance(true, bool) else true + rng.choice([-1, 1])
    if kind == "accuse" and "treasure" in fields and name == "correct":
        return None
    changed = dict(doc, events=list(doc["events"]))
    changed["events"][k] = {kind: dict(fields, **{name: wrong})}
    return changed, k + 1, name, true


GAMES = [
    ("goldraub", lambda seed: goldraub_sim.simulate(4, 8, seed)),
    ("lima", lambda seed: lima_sim.simulate(4, 10, seed)),
]


@pytest.mark.parametrize(("game", "make"), GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_one_changed_answer_is_found_and_tolerated(game, make, seed, unhurried):
    doc, truth = make(seed)
    found = corrupted(doc, random.Random(seed))
    if found is None:
        pytest.skip("no answer to change")
    changed, index, name, true = found
    try:
        record = parse(changed, "sim")
    except Exception:  # the changed value is not valid input on its own (e.g. gold -1)
        return
    result = report(record, tolerate=1)
    assert result.odds.exact
    assert all(result.odds.held[holder, item] > 0 for item, holder in truth.items())
    assert all(truth[f.item] == f.holder for f in result.forced if f.robust)
    if result.fits:
        return
    assert index in result.conflict
    fixes = {(r.event, r.field, r.value): r.worlds for r in result.repairs}
    assert (index, name, true) in fixes
    ranks = [(len(r.changes), -r.worlds) for r in result.repairs]
    assert ranks == sorted(ranks)
    for repair in result.repairs[:3]:
        assert count(parse(repaired(changed, repair), "fixed").model()).total == repair.worlds


def repaired(doc: dict, repair) -> dict:
    """The record ``doc`` with ``repair`` made (a new value None leaves the field out)."""
    fixed = dict(doc, events=list(doc["events"]))
    ((kind, fields),) = fixed["events"][repair.event - 1].items()
    fields = dict(fields, **{name: new for name, new, _ in repair.changes})
    fixed["events"][repair.event - 1] = {kind: {k: v for k, v in fields.items() if v is not None}}
    return fixed


# The command line: report, check, the update after an event, edit, undo.


def test_report_names_the_conflict_and_the_likely_typo(tmp_path, unhurried):
    path = written(tmp_path, HEAD + WRONG)
    result = run(path, "report")
    assert result.exit_code == 3
    assert "2: guess {by: Doris, owner: Bert, sector: 32, correct: true}" in result.stdout
    assert "event 3: with gold 2 instead of 0: " in result.stdout
    assert "\n      sleuth edit 3 gold=2\n" in result.stdout
    data = json.loads(run(path, "report", "--json").stdout)
    assert data["consistent"] is False and data["conflict"] == [2, 3]
    assert [(r["event"], r["field"], r["value"]) for r in data["repairs"]][:2] == [
        (3, "gold", 2),
        (3, "gold", 3),
    ]
    fixed = written(tmp_path, HEAD + WRONG.replace("gold: 0", "gold: 2"))
    assert data["repairs"][0]["worlds"] == count(load(fixed)[0].model()).total


def test_the_update_after_an_event_shows_the_repairs(tmp_path):
    path = written(tmp_path, HEAD)
    result = run(path, "search", "chr", "31-36", "--gold", "0")
    assert result.exit_code == 3
    assert "Contradiction" in result.stdout and "with gold 2 instead of 0" in result.stdout


def test_lima_repair_reads_as_an_answer(tmp_path, unhurried):
    path = written(tmp_path, LIMA)
    result = run(path, "report")
    assert result.exit_code == 3, result.output
    assert "if Ben answered" in result.stdout
    data = json.loads(run(path, "report", "--json").stdout)
    assert data["conflict"] and data["repairs"]
    best = data["repairs"][0]
    assert best["field"] == "answer" and best["changes"] == {"answer": best["value"]}
    fixed = run(path, "edit", best["event"], f"answer={best['value']}")
    assert fixed.exit_code == 0, fixed.output
    assert "deals fit the record" in fixed.stdout
    assert json.loads(run(path, "report", "--json").stdout)["worlds"] == best["worlds"]


def test_tolerate_one_wrong_answer(tmp_path):
    path = written(tmp_path, HEAD + WRONG)
    result = run(path, "report", "--tolerate", "1", "--json")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert data["consistent"] is False and data["tolerate"] == 1 and data["answers"] == 3
    assert data["worlds"] > 0 and data["strict_worlds"] == 0
    assert ["Bert", "32"] in data["forced"]
    assert sum(data["probability"]["Bert"].values()) == pytest.approx(3)
    text = run(path, "report", "--tolerate", "1")
    assert "Tolerating one wrong answer" in text.stdout and "robust" in text.stdout
    assert "Chance of gold per sector" in text.stdout
    check = run(path, "check", "bert", "33", "--tolerate", "1")
    assert check.exit_code == 3 and "Bert holds 33: probability" in check.stdout


def test_tolerate_on_a_consistent_record_marks_robust_facts(tmp_path):
    path = written(tmp_path, HEAD)
    strict = json.loads(run(path, "report", "--json").stdout)
    loose = json.loads(run(path, "report", "--json", "--tolerate", "1").stdout)
    assert loose["consistent"] is True and loose["strict_worlds"] == strict["worlds"]
    assert loose["worlds"] > strict["worlds"]
    assert loose["strict_forced"] == strict["forced"] == [["Bert", "32"]]
    assert loose["forced"] == []
    assert (
        run(path, "report", "--tolerate", "0", "--json").stdout
        == run(path, "report", "--json").stdout
    )


def test_lima_check_under_tolerance(tmp_path):
    path = written(tmp_path, LIMA)
    result = run(path, "check", "3f", "7b", "--tolerate", "1")
    assert result.exit_code == 3, result.output
    assert "Tolerating one wrong answer" in result.stdout
    assert "treasure = 3F + 7B: probability" in result.stdout


def test_edit_changes_one_event_in_place(tmp_path):
    path = written(tmp_path, HEAD + WRONG)
    result = run(path, "edit", "3", "gold=2")
    assert result.exit_code == 0, result.output
    assert "event 3 was: search {by: Christl, row: 31-36, gold: 0}" in result.stdout
    assert "event 3 now: search {by: Christl, row: 31-36, gold: 2}" in result.stdout
    assert path.read_text() == HEAD + WRONG.replace("gold: 0", "gold: 2")
    assert run(path, "edit", "2", "correct=wrong", "by=ant").exit_code == 0
    assert "guess: {by: Anton, owner: Bert, sector: 32, correct: false}" in path.read_text()
    assert run(path, "edit", "1", "saw=").exit_code == 0
    assert "search: {by: Anton, row: 31-36, gold: 2}\n" in path.read_text()


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["9", "gold=1"], "no event 9"),
        (["3", "gold=7"], "field 'gold'"),
        (["3", "gold"], "FIELD=VALUE"),
        (["3", "colour=red"], "field 'colour'"),
        (["2", "owner=Xaver"], "field 'owner'"),
        (["3", "row=32-35"], "did you mean 31-36?"),
    ],
)
def test_bad_edits_leave_the_record_alone(tmp_path, args, where):
    path = written(tmp_path, HEAD + WRONG)
    result = run(path, "edit", *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and where in lines[0] and "sleuth edit" in lines[0]
    assert path.read_text() == HEAD + WRONG


def test_undo_then_consistent(tmp_path):
    path = written(tmp_path, HEAD + WRONG)
    result = run(path, "undo")
    assert result.exit_code == 0 and "removed: search {by: Christl" in result.stdout
    assert run(path, "report").exit_code == 0


# Errors suggest the nearest valid value.


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["search", "Bret", "31-36", "--gold", "1"], "did you mean Bert?"),
        (["search", "Anton", "32-35", "--gold", "1"], "did you mean 31-36?"),
        (["guess", "Anton", "Dorsi", "32", "--wrong"], "did you mean Doris?"),
        (["serach", "Anton", "31-36"], "Did you mean 'search'?"),
    ],
)
def test_errors_suggest_the_nearest_value(tmp_path, args, hint):
    path = written(tmp_path, HEAD)
    result = run(path, *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and hint in lines[0], result.stderr
    assert path.read_text() == HEAD


def test_written_record_errors_name_event_and_field(tmp_path):
    path = written(tmp_path, HEAD + "  - search: {by: Anton, row: 33-35, gold: 1}\n")
    result = run(path, "report")
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "event 3" in line and "field 'row'" in line and "did you mean 31-36?" in line
    path = written(tmp_path, LIMA.replace("range: N-S", "range: N-SX"))
    line = run(path, "report").stderr.strip()
    assert "event 1" in line and "field 'range'" in line and "did you mean S" in line


# Repairs of a whole event: several answers, a misheard row or player, counted as brute force.


def _altered(doc: dict, event: int, **fields) -> dict:
    """The record ``doc`` with event ``event``'s fields changed (None: left out)."""
    out = dict(doc, events=list(doc["events"]))
    ((kind, old),) = out["events"][event - 1].items()
    new = {k: v for k, v in dict(old, **fields).items() if v is not None}
    out["events"][event - 1] = {kind: new}
    return out


@pytest.mark.parametrize(("seed", "event"), [(4, 6), (46, 5)])  # altered, my hand allows it
def test_gold_and_saw_misheard_together_are_repaired_as_brute_force_counts(seed, event, unhurried):
    doc, _ = goldraub_sim.simulate(3, 6, seed)
    true = doc["events"][event - 1]["search"]
    wrong = _altered(doc, event, gold=(true["gold"] + 1) % 3, saw=1 - true["saw"])
    result = report(parse(wrong, "sim"))
    assert not result.fits and not result.repairs_cut
    fixes = {(r.event, r.field, r.value) for r in result.repairs}
    assert (event, "gold,saw", (true["gold"], true["saw"])) in fixes
    true = next(r for r in result.repairs if r.field == "gold,saw")
    for repair in result.repairs:  # the changed record's own count; the likeliest by brute force
        changed = parse(repaired(wrong, repair), "fixed").model()
        assert count(changed).total == repair.worlds
        if repair in result.repairs[:3] or repair == true:
            assert brute_count(changed)[0] == repair.worlds


def test_the_issues_gold_0_saw_0_gets_gold_1_saw_1_and_its_command(tmp_path, unhurried):
    doc, _ = goldraub_sim.simulate(5, 16, 26)
    assert doc["events"][14]["search"]["gold"] == doc["events"][14]["search"]["saw"] == 1
    path = tmp_path / "game.yaml"
    path.write_text(json.dumps(_altered(doc, 15, gold=0, saw=0)))
    data = json.loads(run(path, "report", "--json").stdout)
    best = data["repairs"][0]
    assert (best["event"], best["field"], best["value"]) == (15, "gold,saw", [1, 1])
    assert best["changes"] == {"gold": 1, "saw": 1}
    text = run(path, "report").stdout
    assert "event 15: with gold 1, saw 1 (not 0, 0):" in text
    assert "\n      sleuth edit 15 gold=1 saw=1\n" in text
    fixed = run(path, "edit", "15", "gold=1", "saw=1")
    assert fixed.exit_code == 0
    assert json.loads(run(path, "report", "--json").stdout)["worlds"] == best["worlds"]


def test_a_misheard_row_is_tried_at_its_space_first_then_anywhere():
    doc, _ = goldraub_sim.simulate(4, 8, 3)
    record = parse(doc, "sim")
    index, search = next((k, e) for k, e in enumerate(record.events, 1) if e.kind == "search")
    changes = [c for c, _ in candidates(record, index) if c[0][0] == "row"]
    offered = set(record.start.city.route[search.at]) - {search.row}
    assert {c[0][1] for c in changes if len(c) == 1} == offered
    elsewhere = [c for c in changes if len(c) == 2]
    assert len(elsewhere) == 20 - len(offered)
    assert all(c[1] == ("at", None, search.at) for c in elsewhere)


def test_a_misheard_player_and_a_lima_terrain_are_changes_of_one_event():
    record = parse(yaml_doc(LIMA), "lima")
    changes = [c for c, _ in candidates(record, 3)]
    assert (("to", "Ana", "Ben"),) in changes and (("to", "Di", "Ben"),) not in changes  # Di asked
    assert (("answer", 2, 1), ("terrain", "forest", None)) in changes
    assert not any(name == "by" for c in changes for name, _, _ in c)  # it tells nothing
    goldraub = parse(yaml_doc(HEAD), "goldraub")
    owners = [c for c, _ in candidates(goldraub, 2) if c[0][0] == "owner"]
    assert {c[0][1] for c in owners} == {"Anton", "Christl", "Elli"}


def test_repairs_are_ranked_fewer_fields_first_then_most_deals(unhurried):
    record = parse(yaml_doc(HEAD + WRONG), "goldraub")
    found, whole = repairs(record, record.model(), [2, 3], 15.0)
    assert whole and found[0].changes == (("gold", 2, 0),)
    ranks = [(len(r.changes), -r.worlds) for r in found]
    assert ranks == sorted(ranks) and {len(r.changes) for r in found} >= {1}


def yaml_doc(text: str) -> dict:
    """A record text as parsed YAML."""
    return parse_yaml(text, "test", keep=False)
