"""Looting London's ``next``: every number of every option against brute force on small boxes.

On small boxes (three figures, four cards each, a row of three), at every turn of mine in
simulated games (reshuffles included), each option ``advise`` lists (my melds, my destroys and
the meld after, each draw) gives, per column, the chance I can take its bottom tile at my next
turn and the chance each opponent takes it first, and the expected best tile I can meld then;
each equals ``oracles.london.my_turn``, which plays the option and the opponents' model on
every order of the hidden cards.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles.london import TooMany, my_turn
from test_london import SMALL, small_record

from sleuth.games.london.advice import DECK, advise, payment, weigh_turn
from sleuth.games.london.cards import BOX, Tile
from sleuth.games.london.course import next_player
from sleuth.games.london.hands import believe
from sleuth.games.london.simulate import simulate
from sleuth.record import parse


def my_turns(players: int, seeds: range, limit: int = 4000):
    """(doc, k, record) for each prefix of small simulated games that ends before my turn."""
    for seed in seeds:
        game = simulate(
            players, seed, me=seed % players, box=SMALL, dealt=1 + seed % 2, turns=16, numbers=2
        )
        record = small_record(game.doc, SMALL)
        for k in range(len(record.events) + 1):
            cut = record.upto(k)
            found = believe(cut, box=SMALL)
            now = found.course
            if now.over or now.turn is not None:
                continue
            if next_player(now, cut.table) not in (None, cut.table.me):
                continue
            yield game.doc, k, found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_option_equals_brute_force(players):
    compared, destroys, decks, pools = 0, 0, 0, 0
    for doc, k, found in my_turns(players, range(8)):
        advice = advise(found, {})
        pools = max(pools, found.course.pool)
        for turn in advice.options:
            first = [e.fields() for e in (turn.destroy, turn.meld) if e is not None]
            first = [{"destroy" if "tiles" in f else "meld": f} for f in first]
            try:
                expected = my_turn(doc, SMALL.figures, SMALL.copies, k, first, turn.draw, 20_000)
            except TooMany:
                break
            assert turn.mine == expected["mine"], (doc["me"], k, turn)
            assert turn.before == expected["before"], (doc["me"], k, turn)
            assert turn.best == expected["best"], (doc["me"], k, turn)
            compared += 1
            destroys += turn.destroy is not None
            decks += turn.draw == DECK
    assert compared > 200 and destroys >= 8 and decks > 60 and pools >= 1


def test_the_options_are_ranked_by_points_now_and_the_best_meld_expected_next():
    for _doc, _k, found in my_turns(3, range(3)):
        options = advise(found, {}).options
        values = [t.points + t.best for t in options]
        assert values == sorted(values, reverse=True)
        assert all(isinstance(t.best, Fraction) for t in options)


def test_a_payment_spends_the_figure_first_then_pairs_of_the_most_held():
    assert payment((2, 5, 0, 0), Tile("green", "waif", 4), BOX) == (2, 4, 0, 0)
    assert payment((1, 1, 1, 1), Tile("green", "waif", 2), BOX) is None


def test_a_turn_as_played_equals_brute_force_with_its_own_payment():
    from sleuth.games.london.replay import my_turns
    from sleuth.games.london.rules import Clear, Destroy, Meld

    compared = 0
    for seed in range(10):
        game = simulate(3, seed, me=seed % 3, box=SMALL, dealt=1 + seed % 2, turns=16, numbers=2)
        record = small_record(game.doc, SMALL)
        for k, events in my_turns(record):
            found = believe(record.upto(k), box=SMALL)
            if (
                not found.consistent
                or found.course.over
                or any(isinstance(e, Clear) for e in events)
            ):
                continue
            first = tuple(e for e in events if isinstance(e, Destroy | Meld))
            draw = events[-1]
            card = DECK if draw.deck else draw.card
            turn = weigh_turn(found, first, card)
            said = [{e.kind: e.fields()} for e in first]
            try:
                expected = my_turn(game.doc, SMALL.figures, SMALL.copies, k, said, card, 20_000)
            except TooMany:
                break
            assert (turn.mine, turn.before, turn.best) == (
                expected["mine"],
                expected["before"],
                expected["best"],
            ), (seed, k)
            compared += 1
    assert compared > 30


def test_the_replay_lets_go_only_what_the_values_show():
    from sleuth.games.london.replay import judge
    from sleuth.replay import steps

    record = parse(simulate(3, 2, me=1, turns=45).doc, "sim")
    judged = judge(record, steps(record, 5.0), 5.0, None, None)
    assert len(judged.moves) > 8 and any(m.data["lost"] for m in judged.moves)
    for move in judged.moves:
        data = move.data
        assert data["lost"] == pytest.approx(max(0.0, data["best_value"] - data["value"]))
        assert ("the best" in move.line) == (data["lost"] == 0)
        assert data["value"] <= data["best_value"] + 1e-12  # next's best is the best it lists


def test_next_s_chances_are_calibrated_when_the_opponents_follow_its_model():
    """With opponents who meld as ``next``'s model says (the simulator without destroys),
    the chances ``next`` gave of taking each column's tile at my next turn, summed over
    every turn of the advised seat, against the tiles it then could take: within 3 sd."""
    from sleuth.games.london.cards import worth

    stated = spread = 0.0
    taken = 0
    for seed in range(40):

        def advisor(doc: dict, pending: list = []) -> dict:  # noqa: B006 - one list a game
            nonlocal stated, spread, taken
            found = believe(parse(doc, "sim"))
            now, me = found.course, found.record.table.me
            for chance, column, tile, length in pending:
                taken += len(now.columns[column - 1]) == length and (
                    worth(now.known[me], tile, found.box) >= tile.number
                )
                stated += chance
                spread += chance * (1 - chance)
            pending.clear()
            turn = advise(found, {}).options[0]
            lengths = {c: len(t) for c, t in enumerate(now.columns, 1)}
            for event in (turn.destroy, turn.meld):
                if event is not None:
                    lengths[event.column] -= getattr(event, "tiles", 1)
            for column, p in turn.mine.items():
                pending.append((float(p), column, turn.tiles[column], lengths[column]))
            first = {"destroy": turn.destroy, "meld": turn.meld}
            out = {k: None if e is None else {**e.fields()} for k, e in first.items()}
            for step in out.values():
                if step is not None:
                    step.pop("by")
            return {**out, "draw": turn.draw}

        simulate(3, seed, me=seed % 3, destroy=0.0, advisor=advisor)
    assert stated > 100
    assert abs(taken - stated) < 3 * spread**0.5, (taken, stated)


def test_check_after_my_meld_says_one_meld_a_turn():
    from pathlib import Path

    from sleuth.games.london.advice import hold
    from sleuth.store import load

    record = load(Path(__file__).resolve().parents[2] / "examples/looting-london-4p.yaml")[0]
    melded = hold(believe(record.upto(23)), 3)  # event 23: my meld, my draw still to come
    assert melded.melded and melded.now is None and melded.destroy is None
    assert all(t.meld is None for t in advise(believe(record.upto(23)), {}).options)
    fresh = hold(believe(record.upto(22)), 1)
    assert not fresh.melded and fresh.now is not None and fresh.verdict == "take"
