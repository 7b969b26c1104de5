"""A game whose hidden state moves and whose evidence has likelihoods: its exact posteriors and
the facts that start and end, against brute-force enumeration of every random choice; and the
shared screens, JSON, log and play serve it with no screens of its own."""

from __future__ import annotations

import importlib
import itertools
import json
import random
from fractions import Fraction

import pytest
import tokengame
from typer.testing import CliRunner

from sleuth.belief import Fact, core, run, runs
from sleuth.beliefs import belief
from sleuth.games import GAMES, register
from sleuth.games.base import Table
from sleuth.record import Record
from sleuth.replay import replay

cli_app = importlib.import_module("sleuth.cli.app")
commands_module = importlib.import_module("sleuth.cli.commands")
PLAYERS = ("Ann", "Bob", "Cy")


def brute(players, first, hand, events) -> dict[str, Fraction] | None:
    """The chance of each holder after ``events``, by listing every random choice of the game.

    The choices: who was dealt the token (``first`` 1/2, the rest the other half), where each
    shuffle sent it (each player 1/P), which card each draw took (each 1/hand; card 0 is the
    token when the drawn-from player holds it). None when no choice gives what was seen.
    """
    rest = Fraction(1, 2 * (len(players) - 1))
    deal = {p: Fraction(1, 2) if p == first else rest for p in players}
    shuffles = sum(kind == "shuffle" for kind, *_ in events)
    draws = len(events) - shuffles
    total: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    for start in players:
        for sent in itertools.product(players, repeat=shuffles):
            for cards in itertools.product(range(hand), repeat=draws):
                weight = deal[start] * Fraction(1, len(players)) ** shuffles
                weight *= Fraction(1, hand) ** draws
                holder, moves, picks = start, iter(sent), iter(cards)
                for kind, *fields in events:
                    if kind == "shuffle":
                        holder = next(moves)
                        continue
                    by, of, found = fields
                    pick = next(picks)  # every draw takes a card, the token or another
                    took = holder == of and pick == 0
                    if took != found:
                        weight = Fraction(0)
                        break
                    if took:
                        holder = by
                if weight:
                    total[holder] += weight
    mass = sum(total.values())
    return {p: w / mass for p, w in total.items()} if mass else None


def record_of(players, first, hand, events) -> Record:
    """The record of ``events``: ("shuffle", by) or ("draw", by, of, found)."""
    table = Table(tuple(players), players[0])
    start = tokengame.Start(first, hand)
    parsed = []
    for kind, *fields in events:
        if kind == "shuffle":
            parsed.append(tokengame.Shuffle(fields[0]))
        else:
            parsed.append(tokengame.Draw(*fields))
    return Record("token", table, start, parsed)


def random_events(rng: random.Random, players, n: int) -> list[tuple]:
    """``n`` events: shuffles and draws, each draw's outcome drawn at random (may fit nothing)."""
    events: list[tuple] = []
    for _ in range(n):
        if rng.random() < 0.3:
            events.append(("shuffle", rng.choice(players)))
        else:
            by, of = rng.sample(players, 2)
            events.append(("draw", by, of, rng.random() < 0.25))
    return events


@pytest.fixture(autouse=True)
def registered():
    """Token registered for the test, and gone after."""
    register(tokengame.GAME)
    yield
    del GAMES["token"]


@pytest.mark.parametrize("seed", range(40))
def test_the_posterior_equals_brute_force_enumeration(seed):
    rng = random.Random(seed)
    players = PLAYERS[: rng.choice((2, 3))]
    first, hand = rng.choice(players), rng.choice((1, 2, 3))
    events = random_events(rng, players, rng.randint(0, 5))
    expected = brute(players, first, hand, events)
    found = belief(record_of(players, first, hand, events))
    assert found.exact and found.consistent == (expected is not None)
    if expected is None:
        assert found.conflict and found.chance(players[0], tokengame.TOKEN) is None
        return
    for player in players:
        assert found.chance(player, tokengame.TOKEN) == expected[player]


@pytest.mark.parametrize("seed", range(20))
def test_the_facts_start_and_end_where_brute_force_says(seed):
    rng = random.Random(100 + seed)
    players, first, hand = PLAYERS, rng.choice(PLAYERS), 2
    events = random_events(rng, players, 6)
    steps = [brute(players, first, hand, events[:k]) for k in range(len(events) + 1)]
    if steps[-1] is None:
        return
    certain = [frozenset((p, tokengame.TOKEN) for p, w in step.items() if w == 1) for step in steps]
    found = belief(record_of(players, first, hand, events))
    facts = sorted([*found.forced, *found.ended], key=lambda f: (f.since, f.until or 0))
    expected = sorted(
        [f for f in runs(certain) if f.since or f.until is not None],
        key=lambda f: (f.since, f.until or 0),
    )
    assert facts == expected
    for fact in facts:  # each fact holds over its stretch, and not just before or after
        end = fact.until if fact.until is not None else len(events) + 1
        assert all(steps[k][fact.holder] == 1 for k in range(fact.since, end))
        assert fact.since == 0 or steps[fact.since - 1][fact.holder] != 1
        assert fact.until is None or steps[fact.until][fact.holder] != 1


@pytest.mark.parametrize("seed", range(20))
def test_every_replayed_step_equals_brute_force_of_its_prefix(seed):
    rng = random.Random(200 + seed)
    players, first, hand = PLAYERS, rng.choice(PLAYERS), rng.choice((1, 2, 3))
    events = random_events(rng, players, 6)
    found = replay(record_of(players, first, hand, events))
    assert found.ends and found.noun == "holder" and len(found.steps) == len(events) + 1
    before: frozenset = frozenset()
    for k, step in enumerate(found.steps):
        expected = brute(players, first, hand, events[:k])
        assert step.event == k and step.consistent == (expected is not None)
        if expected is None:
            assert all(not s.consistent for s in found.steps[k:])  # none fits from here on
            break
        for player in players:
            assert step.probability(player, tokengame.TOKEN) == expected[player]
        assert step.worlds == sum(1 for w in expected.values() if w)
        now = frozenset((p, tokengame.TOKEN) for p, w in expected.items() if w == 1)
        assert step.forced == (now - before if k else frozenset())
        assert step.ended == (before - now if k else frozenset())
        before = now


def test_a_fact_ends_when_the_token_moves():
    events = [("draw", "Bob", "Ann", True), ("shuffle", "Cy"), ("draw", "Ann", "Cy", True)]
    found = belief(record_of(PLAYERS, "Ann", 3, events))
    assert found.ended == [Fact("Bob", "token", 1, until=2)]
    assert found.forced == [Fact("Ann", "token", 3)]


def test_runs_and_the_minimal_core_on_their_own():
    a, b = ("Ann", "token"), ("Bob", "token")
    assert runs([frozenset({a}), frozenset(), frozenset({b}), frozenset({b})]) == [
        Fact("Ann", "token", 0, until=1),
        Fact("Bob", "token", 2),
    ]
    prior = {"Ann": Fraction(1)}
    never = lambda s: []  # noqa: E731
    keep = lambda s: [(s, Fraction(1))]  # noqa: E731
    assert run(prior, [keep, never, keep])[-1] == {}
    assert core(prior, [keep, never, keep]) == [2]


def test_the_shared_screens_serve_a_belief_of_its_own(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    env = cli_app.Env(environ={"SLEUTH_CACHE": "off"})
    kept = list(cli_app.app.registered_commands), list(cli_app.starting.registered_commands)
    commands_module.install(tokengame.GAME)
    runner = CliRunner()

    def run_(*args, **kw):
        return runner.invoke(cli_app.app, [str(a) for a in args], obj=env, **kw)

    try:
        started = run_("new", "token", "--players", "Ann,Bob,Cy", "--me", "ann", "hand=2")
        assert started.exit_code == 0, started.output
        done = run_("draw", "by=bo", "of=an", "found=no")
        assert done.exit_code == 0, done.output
        assert "recorded: draw {by: Bob, of: Ann, found: false}" in done.stdout
        assert "3 holders still possible" in done.stdout
        found = run_("draw", "by=bo", "of=an", "found=yes")
        assert "now certain: Bob holds token" in found.stdout
        moved = run_("shuffle", "by=cy")
        assert "no longer certain: Bob holds token" in moved.stdout
        report = json.loads(run_("report", "--json").stdout)
        assert report["probability"]["Cy"]["token"] == pytest.approx(1 / 3)
        assert report["ended"] == [["Bob", "token", 2, 3]] and report["forced"] == []
        text = run_("report")
        assert text.exit_code == 0 and "Token: chance of each holding" in text.stdout
        check = json.loads(run_("check", "cy", "token", "--json").stdout)
        assert check["probability"] == pytest.approx(1 / 3)
        assert len(json.loads(run_("log", "--json").stdout)) == 3
        played = run_("play", input="draw by=an of=cy found=no\nreport\nquit\n")
        assert played.exit_code == 0, played.output
        assert "Token" in played.stdout and "chance of each holding" in played.stdout
        taken = run_("draw", "by=an", "of=bo", "found=yes")
        assert taken.exit_code == 0 and "now certain: Ann holds token" in taken.stdout
        impossible = run_("draw", "by=cy", "of=bo", "found=yes")  # Ann holds it, not Bob
        assert impossible.exit_code == 3 and "cannot all hold together" in impossible.stdout
        assert "5: draw {by: Ann, of: Bob, found: true}" in impossible.stdout  # with event 6
        assert "6: draw {by: Cy, of: Bob, found: true}" in impossible.stdout
        replayed = run_("replay")
        assert replayed.exit_code == 3 and "No holder fits the record from event 6 on." in (
            replayed.stdout
        )
        assert "> no longer certain: Bob token" in replayed.stdout
        assert "> certain: Ann token" in replayed.stdout
        steps = json.loads(run_("replay", "--json", "--step-budget", "1").stdout)["steps"]
        assert [s["ended"] for s in steps[2:4]] == [[], [["Bob", "token"]]]
        assert [s["consistent"] for s in steps] == [True] * 6 + [False]
        why = run_("why", "cy", "token", "--upto", "5")
        assert why.exit_code == 0 and "Certain: Cy does not hold token, since event 5." in (
            why.stdout
        )
        assert "3      0% ->  33.3%  Cy shuffle" in why.stdout
        open_ = run_("why", "bob", "token", "--upto", "4", "--all")
        assert "Not certain: Bob token at 40.0% after event 4." in open_.stdout
        unfit = run_("why", "ann", "token")
        assert unfit.exit_code == 3 and "No holder fits the record" in unfit.stdout
        tolerant = run_("report", "--tolerate", "1")
        assert tolerant.exit_code == 2 and "tolerates no wrong answer" in tolerant.stderr
    finally:
        cli_app.app.registered_commands[:] = kept[0]
        cli_app.starting.registered_commands[:] = kept[1]
