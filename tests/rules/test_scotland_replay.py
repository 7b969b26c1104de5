"""Scotland Yard's replay: every hunt judged at the odds it had, against brute force and truth.

A judged hunt's catch is the chance the step before gave its target (mine for my own hunts, the
public's for another player's) times the share of the target's true hand it took; its best is
the target with the highest such catch; my own hunts as Mister X are not judged. The chances
are brute force's (``oracles/scotland.py``) wherever the prefix is small enough to enumerate.
"""

from __future__ import annotations

from fractions import Fraction

from oracles.scotland import posterior, size

from sleuth.games.scotland.course import follow
from sleuth.games.scotland.simulate import simulate
from sleuth.record import parse
from sleuth.replay import replay

SMALL = 20_000


def test_every_hunt_is_judged_at_the_odds_brute_force_gives_it():
    judged = brute = 0
    for seed in range(40):
        players = 3 + seed % 3
        game = simulate(players, seed, me=seed % players, mister_x_bold=0.3)
        record = parse(game.doc, "simulated")
        courses = follow(record.events, record.table, record.start)
        moves = {m.event: m.data for m in replay(record).judged.moves}
        me = game.doc["me"]
        for k, event in enumerate(game.doc["events"], 1):
            ((kind, body),) = event.items()
            hunt = body.get("action") in ("manhunt", "interrogation") and "target" in body
            mister_x = game.holders[k - 1] == me and body["by"] == me
            if not hunt or mister_x:
                assert k not in moves, (seed, k)
                continue
            data = moves[k]
            judged += 1
            if size(game.doc, k - 1) > SMALL:
                continue
            chances = posterior(game.doc, k - 1, public=body["by"] != me)
            taken = 2 if body["action"] == "manhunt" and body["ticket"].endswith("r") else 1
            catch = {}
            for player, hand in game.hands[k - 1].items():
                if player == body["by"] or player in courses[k - 1].out:
                    continue
                share = Fraction(min(taken, len(hand)), len(hand)) if hand else Fraction(0)
                p = chances[player]
                catch[player] = p if body["action"] == "interrogation" else p * share
            assert abs(data["catch"] - float(catch[body["target"]])) < 1e-12, (seed, k)
            assert abs(data["best_catch"] - float(max(catch.values()))) < 1e-12, (seed, k)
            brute += 1
    assert judged > 150 and brute > 20
