"""Loot the Loop's planner: its fast game follows the rules, its rollout policy sees only what
a player sees, and its sampled chances agree with playing every order on small temples."""

from __future__ import annotations

import random

import pytest

from sleuth.games.loop import plan
from sleuth.games.loop.cards import DECK
from sleuth.games.loop.plan import CODE, advise, fill, play, rollout
from sleuth.games.loop.simulate import simulate
from sleuth.games.loop.temple import Temple, follow
from sleuth.games.loop.tracker import Tracker, believe
from sleuth.record import parse


def action_of(event: dict) -> tuple[str, int]:
    ((kind, value),) = event.items()
    if kind == "look":
        return ("look", 0)
    if kind == "explore":
        return ("explore", value)
    return (kind, CODE[value])


def seen(game: plan.Game) -> tuple:
    return tuple(DECK[c] if up else None for c, up in zip(game.deck, game.up, strict=True))


def test_the_planner_s_game_follows_the_rules_of_every_simulated_game():
    for seed in range(150):
        truth = simulate(seed, ("random", "greedy")[seed % 2])
        record = parse(truth.doc, "simulated")
        temples = follow(record.events, record.table, record.start)
        game = fill(temples[0], tuple(card for card, _ in truth.states[0].deck))
        for event, temple in zip(truth.doc["events"], temples[1:], strict=True):
            play(game, action_of(event))
            assert seen(game) == temple.deck and game.status == temple.status, seed
            assert [DECK[c] for c in game.notes] == list(temple.notes)
            assert game.score == len(temple.score) and game.jewels == temple.jewels()


def test_the_rollout_policy_sees_only_what_a_player_sees():
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        truth = simulate(seed, "greedy")
        record = parse(truth.doc, "simulated")
        for temple in follow(record.events, record.table, record.start):
            if not temple.actions():
                continue
            orders = [tuple(rng.sample(temple.unseen, len(temple.unseen))) for _ in range(3)]
            chosen = {rollout(fill(temple, order)) for order in orders}
            assert len(chosen) == 1, (seed, chosen)
            checked += 1
    assert checked > 800


SMALL = Temple(
    deck=(None,) * 6,
    score=("AH", "AD", "AC"),
    seen=frozenset(DECK) - {"AS", "joker", "2H", "3H", "4H", "KS"},
)


def test_a_sample_agrees_with_every_order_on_a_small_temple(monkeypatch):
    found = Tracker(None, SMALL)
    exact = advise(found, {})
    assert exact.exact and exact.games == 720
    assert any(w.won for w in exact.options) and not all(w.won == w.games for w in exact.options)
    monkeypatch.setattr(plan, "EXACT", 0)
    monkeypatch.setattr(plan, "SAMPLES", 3000)
    sampled = advise(found, {})
    assert not sampled.exact and sampled.games == 3000
    truth = {str(w.action): w.win for w in exact.options}
    for w in sampled.options:
        assert w.low <= truth[str(w.action)] <= w.high, (w, truth)


def test_the_options_are_ranked_by_their_chance_then_the_rollouts_choice_then_their_score():
    found = believe(parse({"game": "loot-the-loop", "events": [{"look": ["5H", "7C"]}]}, "t"), None)
    options = advise(found, {}, samples=100).options
    own = plan.named(rollout(fill(found.temple, found.temple.unseen)))
    keys = [(-w.win, w.action != own, -w.score) for w in options]
    assert keys == sorted(keys) and {str(w.action) for w in options} == {
        "explore 5",
        "explore 7",
        "mark 5H",
    }


@pytest.mark.parametrize("events", [[], [{"look": ["5H", "7C"]}]])
def test_every_legal_action_is_weighed(events):
    found = believe(parse({"game": "loot-the-loop", "events": events}, "t"), None)
    weighed = advise(found, {}, samples=100)
    assert {str(w.action) for w in weighed.options} == {str(a) for a in found.temple.actions()}


def test_with_every_card_seen_the_one_order_is_played():
    deck = tuple(random.Random(5).sample(DECK, len(DECK)))
    now = Temple(deck, seen=frozenset(DECK))
    weighed = advise(Tracker(None, now), {})
    assert weighed.exact and weighed.games == 1
    for option in weighed.options:
        game = fill(now, ())
        play(game, plan.code(option.action))
        ended = plan.finish(game)
        assert (option.won, option.score) == (ended.status == "won", ended.score)


def test_the_compiled_games_are_the_python_games_game_by_game():
    """``loop.rollout`` (numba) against ``plan``'s Python twin: the same status and score."""
    import numpy as np

    from sleuth.games.loop import rollout
    from sleuth.games.loop.plan import WHAT, arrays, code, finish

    rng = random.Random(11)
    compared = 0
    for seed in range(16):
        truth = simulate(seed, "greedy")
        record = parse(truth.doc, "simulated")
        temples = follow(record.events, record.table, record.start)
        for temple in temples[:: max(1, len(temples) // 3)]:
            for action in temple.actions():
                orders = [tuple(rng.sample(temple.unseen, len(temple.unseen))) for _ in range(3)]
                what, arg = code(action)
                table = np.array([[CODE[c] for c in o] for o in orders], dtype=np.int64)
                table = table.reshape(len(orders), len(temple.unseen))
                routes = plan.ROUTES
                ended = rollout.play_out(
                    *arrays(temple), WHAT[what], arg, table, plan.STEPS, routes
                )
                for order, (status, score) in zip(orders, ended, strict=True):
                    game = fill(temple, order)
                    play(game, (what, arg))
                    game = finish(game)
                    expected = ("playing", "won", "lost", "stuck").index(game.status)
                    assert (status, score) == (expected, game.score), (seed, action, order)
                    compared += 1
    assert compared > 100


def test_a_replay_judges_each_move_by_the_planner_s_numbers_at_its_step():
    from sleuth.budget import due
    from sleuth.replay import replay

    truth = simulate(139, "greedy")
    record = parse(dict(truth.doc, events=truth.doc["events"][:12]), "t")
    judged = replay(record).judged
    assert len(judged.moves) == 12 and len(judged.best) == 13
    for move in judged.moves:
        found = believe(record.upto(move.event - 1), None)
        options = {str(w.action): w for w in advise(found, {}, due(0)).options}
        mine, best = options[move.data["action"]], options[move.data["best"]]
        assert best is next(iter(options.values()))
        assert (move.data["score"], move.data["best_score"]) == (mine.score, best.score)
        assert move.data["lost"] == best.score - mine.score


def test_the_line_is_the_rollouts_route_up_to_a_look_whatever_lies_face_down():
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        truth = simulate(seed, "greedy")
        record = parse(truth.doc, "simulated")
        for temple in follow(record.events, record.table, record.start)[1::3]:
            if not temple.actions():
                continue
            first = temple.actions()[-1]
            line = plan.line(temple, first)
            assert line[0] == first and all(a.action != "look" for a in line[:-1])
            assert first.action != "look" or line == [first]
            for _ in range(3):  # any order under the face-down places: the same route
                game = fill(temple, tuple(rng.sample(temple.unseen, len(temple.unseen))))
                play(game, plan.code(first))
                for action in line[1:]:
                    assert plan.named(rollout(game)) == action
                    if action.action == "look":
                        break
                    play(game, plan.code(action))
            checked += 1
    assert checked > 20
