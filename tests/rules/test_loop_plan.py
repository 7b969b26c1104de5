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


def test_the_first_option_is_the_rollouts_own_unless_another_clearly_wins_more():
    moved = 0
    for seed in (2, 5, 9):
        truth = simulate(seed, "greedy")
        record = parse(truth.doc, "simulated")
        for temple in follow(record.events, record.table, record.start)[1::4]:
            if len(temple.actions()) < 2:
                continue
            options = advise(Tracker(None, temple), {}, samples=200).options
            own = plan.named(rollout(fill(temple, temple.unseen)))
            rest = [(-w.win, -w.score) for w in options[1:]]
            assert rest == sorted(rest)
            if options[0].action != own:
                mine = next(w for w in options if w.action == own)
                assert options[0].won > mine.won + 1.96 * (options[0].won + mine.won) ** 0.5 / 2
                moved += 1
    assert moved < 40


def test_clearly_is_mcnemar_on_wins_and_the_paired_mean_on_cards():
    import numpy as np

    a = np.array([True] * 12 + [False] * 88)
    b = np.array([False] * 12 + [False] * 88)
    assert plan.clearly(a, b, exact=False)  # 12 discordant, all one way: 12 > 1.96 * sqrt(12)
    c = np.array([False] * 6 + [True] * 8 + [False] * 86)  # a only: 6, c only: 2
    assert not plan.clearly(a, c, exact=False)  # 6 - 2 = 4, not above 1.96 * sqrt(8) = 5.5
    assert plan.clearly(a, c, exact=True) and not plan.clearly(c, a, exact=True)
    d = np.array([False] * 5 + [True] * 7 + [False] * 88)  # a only: 5, d only: 0
    assert plan.clearly(a, d, exact=False)  # 5 above 1.96 * sqrt(5) = 4.4
    tied = np.array([True] * 6 + [False] * 94)
    assert not plan.clearly(tied, np.roll(tied, 50), exact=False)  # 6 against 6
    cards = np.arange(100) % 7
    assert plan.clearly(cards + 1, cards, exact=False) and not plan.clearly(cards, cards, False)


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
        level = move.data["action"] in advise(found, {}, due(0)).level
        assert move.data["lost"] == (0.0 if level else best.score - mine.score)
        assert ("as good as" in move.line) == (level and mine is not best)


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


def test_a_line_cut_short_says_so():
    from rich.console import Console

    from sleuth.games.loop.picture import show_advice
    from sleuth.games.loop.temple import Action

    weighed = plan.Weighed(Action("explore", 3), 1, 10, 2.0, 0.0, 0.5)
    console = Console(record=True, width=80)
    long = [Action("explore", 3), *([Action("mark", "5H"), Action("return", "5H")] * 6)]
    show_advice(console, plan.Plan((weighed,), False, 10, "m", line=long[: plan.LINE]))
    assert "mark 5H, ...." in console.export_text().replace("\n", " ")
    console = Console(record=True, width=80)
    show_advice(console, plan.Plan((weighed,), False, 10, "m", line=[*long[:3], Action("look")]))
    assert "return 5H, look." in console.export_text().replace("\n", " ")


def test_the_twins_rank_a_winning_route_alike():
    from sleuth.games.loop import rollout

    assert rollout.WIN == plan.WIN


def test_next_names_the_chance_of_being_stuck_after_its_line_s_look():
    from sleuth.games.loop.tracker import after_look

    shown = 0
    for seed in range(6):
        game = simulate(seed, "greedy")
        for k in range(0, len(game.doc["events"]), 3):
            found = believe(parse({**game.doc, "events": game.doc["events"][:k]}, "x"), None)
            if not found.temple.actions():
                continue
            advice = plan.advise(found, {}, samples=20)
            if advice.line and advice.line[-1].action == "look":
                assert advice.after == after_look(plan.at_look(found.temple, advice.line))
                shown += 1
            else:
                assert advice.after is None
    assert shown > 5
