"""The rulebook's example: Anton searches 31-36, Bert holds 32, two GOLD BARS reach Anton.

Christl saw Bert's GOLD BARS card; Doris saw Bert's and Christl's cards, one GOLD BARS.
"""

from sleuth.games.goldraub.board import city
from sleuth.model import Tally, Term
from sleuth.record import parse
from sleuth.solve import Entailment, count

PLAYERS = ["Anton", "Bert", "Christl", "Doris", "Elli"]
ROW = frozenset(city().rows["31-36"])


def model_of(me: str, hand: list[int]):
    """The model of ``me``'s record after Anton's search, seeing one GOLD BARS card."""
    search = {"by": "Anton", "row": "31-36", "gold": 2, "saw": 1}
    doc = {"game": "goldraub", "players": PLAYERS, "me": me, "hand": hand}
    return parse(dict(doc, events=[{"search": search}]), "rulebook").model()


def worlds(model, *players: str, values: set[int]) -> int:
    """Worlds in which the number of ``players`` holding a sector of 31-36 is in ``values``."""
    extra = Tally(tuple(Term(p, ROW, True) for p in players), frozenset(values))
    return count(model.with_group(0, model.groups[0] + (extra,))).total


def test_christl_knows_bert_has_one_and_doris_or_elli_the_other():
    model = model_of("Christl", [22, 45, 63])
    assert count(model).total > 0
    assert worlds(model, "Bert", values={0}) == 0
    assert worlds(model, "Doris", "Elli", values={0, 2}) == 0
    assert worlds(model, "Doris", values={1}) > 0
    assert worlds(model, "Elli", values={1}) > 0


def test_christl_does_not_know_about_anton():
    model = model_of("Christl", [22, 45, 63])
    assert worlds(model, "Anton", values={0}) > 0
    assert worlds(model, "Anton", values={1}) > 0
    counts = count(model)
    assert all(0 < counts.held["Anton", s] < counts.total for s in ROW)


def test_christl_knows_no_single_sector_of_the_row():
    model = model_of("Christl", [22, 45, 63])
    forced = Entailment(model).forced() - Entailment(model.prefix(0)).forced()
    assert not {item for _, item in forced} & ROW
    counts = count(model)
    assert 0 < counts.held["Bert", "32"] < counts.total


def test_doris_knows_bert_or_christl_has_one_but_not_which():
    model = model_of("Doris", [11, 47, 77])
    total = count(model).total
    assert worlds(model, "Bert", "Christl", values={0, 2}) == 0
    assert 0 < worlds(model, "Bert", values={1}) < total
    assert 0 < worlds(model, "Christl", values={1}) < total


def test_the_rulebook_deal_is_a_world_for_both():
    for me, hand in (("Christl", [22, 45, 63]), ("Doris", [11, 47, 77])):
        model = model_of(me, hand)
        assert worlds(model, "Bert", values={1}) > 0
        assert count(model).held["Bert", "32"] > 0
